import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// water.*: drinks logged, added up per day against a goal, reminders until it is reached.
struct WaterController: RequestController {
    /// The longest range `water.total` answers day by day.
    static let maxDays = 3660

    let water: WaterStore
    /// Plans the water reminders again after a change (the scheduler's planning over the whole store).
    let planner: AppDatabase
    let scheduler: Scheduler
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: days of water intake are its local days.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(WaterRPC.add, add)
        router.register(WaterRPC.total, total)
        router.register(WaterRPC.goal, goal)
        router.register(WaterRPC.remind, remind)
        router.register(WaterRPC.import, importRecords)
        router.register(WaterRPC.list, list)
        router.register(WaterRPC.edit, edit)
        router.register(WaterRPC.remove, remove)
    }

    /// The daemon's zone: days of water intake are its local days.
    var waterZone: TimeZone { zone.current }

    func add(_ p: WaterAddParams) throws -> WaterAddResult {
        let now = clock()
        let at = p.at ?? now
        guard at <= now.addingTimeInterval(60) else {
            throw ValidationError(
                field: "at", template: "%s is in the future: log water once it is drunk",
                Timestamps(zone: waterZone).short(at))
        }
        if let until = p.until, until < at {
            throw ValidationError(
                field: "until", template: "must not be before the start (%s)", Timestamps(zone: waterZone).short(at))
        }
        let record = try Validation.waterRecord(
            WaterRecord(uuid: p.uuid ?? UUID().uuidString, amountMl: p.amountMl, start: at, end: p.until))
        let stored = try water.add(record)
        if stored.added {
            logger.info(
                "water logged: \(stored.record.amountMl) ml",
                metadata: ["item_id": "\(stored.record.id ?? 0)", "item_kind": "water"])
            try replan()
        }
        return WaterAddResult(
            record: stored.record, added: stored.added, day: try day(LocalDate(stored.record.start, in: waterZone))
        )
    }

    func total(_ p: WaterRangeParams) throws -> WaterTotalResult {
        let (from, to) = try range(p)
        let goal = try water.goal()
        let days = try water.days(from: from, to: to, zone: waterZone).map {
            WaterDay(day: $0.day, totalMl: $0.totalMl, count: $0.count, goalMl: goal)
        }
        return WaterTotalResult(
            from: from, to: to, totalMl: days.reduce(0) { $0 + $1.totalMl }, count: days.reduce(0) { $0 + $1.count },
            goalMl: goal, days: days)
    }

    /// The range a water request asks about: both ends as given, the missing ones to their day's
    /// bounds, today when neither is given.
    func range(_ p: WaterRangeParams) throws -> (from: Date, to: Date) {
        let now = clock()
        let from: Date
        let to: Date
        switch (p.from, p.to) {
        case let (start?, end?): (from, to) = (start, end)
        case let (start?, nil):
            (from, to) = (start, LocalDate(max(start, now), in: waterZone).adding(days: 1).start(in: waterZone))
        case let (nil, end?):
            (from, to) = (LocalDate(end.addingTimeInterval(-0.001), in: waterZone).start(in: waterZone), end)
        case (nil, nil):
            let today = LocalDate(now, in: waterZone)
            (from, to) = (today.start(in: waterZone), today.adding(days: 1).start(in: waterZone))
        }
        try Validation.range(from: from, to: to, .halfOpen)
        guard LocalDate(from, in: waterZone).days(until: LocalDate(to, in: waterZone)) <= Self.maxDays else {
            throw ValidationError(field: "to", template: "the range is too long: at most %s days", Self.maxDays)
        }
        return (from, to)
    }

    func goal(_ p: WaterGoalParams) throws -> WaterGoalResult {
        if p.off == true, p.goalMl != nil {
            throw ValidationError(field: "goalMl", template: "cannot be combined with \"off\"")
        }
        if p.off == true {
            try water.setGoal(nil)
            try replan()
        } else if let goal = p.goalMl {
            try water.setGoal(try WaterAmount.goal(goal))
            logger.info("daily water goal set to \(goal) ml")
            try replan()
        }
        return WaterGoalResult(goalMl: try water.goal())
    }

    func remind(_ p: WaterRemindParams) throws -> WaterRemindResult {
        var reminder = try water.reminder()
        let changes = p.everySeconds != nil || p.windowStart != nil || p.windowEnd != nil
        if let every = p.everySeconds { reminder.everySeconds = every }
        if let start = p.windowStart { reminder.windowStart = start }
        if let end = p.windowEnd { reminder.windowEnd = end }
        if let enabled = p.enabled { reminder.enabled = enabled } else if changes { reminder.enabled = true }
        if changes || p.enabled != nil {
            reminder = try reminder.validated()
            try water.setReminder(reminder)
            logger.info(
                "water reminders \(reminder.enabled ? "on: every \(DurationParser.format(reminder.everySeconds)) between \(reminder.windowStart) and \(reminder.windowEnd)" : "off")"
            )
            try replan()
        }
        return WaterRemindResult(
            reminder, upcoming: reminder.enabled ? try water.plannedReminders(after: clock()) : [])
    }

    func importRecords(_ p: WaterImportParams) throws -> WaterImportResult {
        let records = try p.records.enumerated().map { index, record in
            do {
                return try Validation.waterRecord(record)
            } catch let error as ValidationError {
                throw error.within("records[\(index)]")
            }
        }
        let counts = try water.importRecords(records)
        logger.info("water import: \(counts.inserted) new, \(counts.skipped) already present")
        if counts.inserted > 0 { try replan() }
        return WaterImportResult(inserted: counts.inserted, skipped: counts.skipped)
    }

    /// Today's water for `now`; nil when there is no goal and nothing was logged today.
    static func today(now: Date, water: WaterStore, zone: TimeZone) throws -> WaterDay? {
        let day = try Self.day(LocalDate(now, in: zone), water: water, zone: zone)
        return day.goalMl == nil && day.count == 0 ? nil : day
    }

    func day(_ day: LocalDate) throws -> WaterDay {
        try Self.day(day, water: water, zone: waterZone)
    }

    static func day(_ day: LocalDate, water: WaterStore, zone: TimeZone) throws -> WaterDay {
        let total = try water.total(on: day, zone: zone)
        return WaterDay(day: day, totalMl: total.totalMl, count: total.count, goalMl: try water.goal())
    }

    /// Intake, goal or reminder settings changed: today's reminders may stop or start again.
    func replan() throws {
        try planner.planWater(now: clock(), zone: waterZone)
        scheduler.wake(.edited)
    }

    // MARK: - One drink at a time, by id (ids from water.list)

    func list(_ p: WaterRangeParams) throws -> [WaterRecord] {
        let (from, to) = try range(p)
        return try ListSort.sorted(
            try water.records(from: from, to: to), sort: p.sort, reverse: p.reverse,
            supported: [.time]
        ) { record, _ in .time(record.start) }
    }

    func edit(_ p: WaterEditParams) throws -> WaterRecordResult {
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(
                field: "at", template: "%s is in the future: log water once it is drunk",
                Timestamps(zone: waterZone).short(at))
        }
        if p.clearUntil == true, p.until != nil {
            throw ValidationError(field: "until", template: "cannot be combined with clearUntil")
        }
        let record = try water.update(id: p.id) { record in
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
        try replan()
        return WaterRecordResult(record: record, day: try day(LocalDate(record.start, in: waterZone)))
    }

    func remove(_ p: IDParams) throws -> WaterRecordResult {
        let record = try water.delete(id: p.id)
        logger.info(
            "water record deleted: \(record.amountMl) ml", metadata: ["item_id": "\(p.id)", "item_kind": "water"])
        try replan()
        return WaterRecordResult(record: record, day: try day(LocalDate(record.start, in: waterZone)))
    }
}
