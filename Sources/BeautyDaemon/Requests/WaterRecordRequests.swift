import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// water.list / water.edit / water.rm: one drink at a time, by id.
extension UnsplitRequests {
    static func waterRecordRoutes(_ router: inout UnsplitRoutes) {
        router.register(WellbeingRPC.waterList) { try $0.listWater($1) }
        router.register(WellbeingRPC.waterEdit) { try $0.editWater($1) }
        router.register(WellbeingRPC.waterRemove) { try $0.removeWater($1) }
    }

    func listWater(_ p: WaterTotalParams) throws -> [WaterRecord] {
        let (from, to) = try waterRange(p)
        return try ListSort.sorted(
            try store.waterRecords(from: from, to: to), sort: p.sort, reverse: p.reverse,
            supported: [.time]
        ) { record, _ in .time(record.start) }
    }

    func editWater(_ p: WaterEditParams) throws -> WaterRecordResult {
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(
                field: "at", template: "%s is in the future: log water once it is drunk",
                Timestamps(zone: waterZone).short(at))
        }
        if p.clearUntil == true, p.until != nil {
            throw ValidationError(field: "until", template: "cannot be combined with clearUntil")
        }
        let record = try store.updateWater(id: p.id) { record in
            if let ml = p.amountMl { record.amountMl = ml }
            if let at = p.at { record.start = at }
            if let until = p.until { record.end = until }
            if p.clearUntil == true { record.end = nil }
            if let end = record.end, end < record.start {
                throw ValidationError(
                    field: p.until != nil ? "until" : "at", template: "the end must not be before the start")
            }
            record = try Validation.waterRecord(record)
        }
        logger.info(
            "water record edited: \(record.amountMl) ml", metadata: ["item_id": "\(p.id)", "item_kind": "water"])
        // Both days' totals may have changed (a drink moved across midnight): today's reminders follow.
        try replanWater()
        return WaterRecordResult(record: record, day: try waterDay(LocalDate(record.start, in: waterZone)))
    }

    func removeWater(_ p: IDParams) throws -> WaterRecordResult {
        let record = try store.removeWater(id: p.id)
        logger.info(
            "water record deleted: \(record.amountMl) ml", metadata: ["item_id": "\(p.id)", "item_kind": "water"])
        try replanWater()
        return WaterRecordResult(record: record, day: try waterDay(LocalDate(record.start, in: waterZone)))
    }
}
