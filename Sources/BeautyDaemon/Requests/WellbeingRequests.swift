import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// tips / tip.random / water.*.
extension UnsplitRequests {
    /// The longest range `water.total` answers day by day.
    static let maxWaterDays = 3660

    static func wellbeingRoutes(_ router: inout UnsplitRoutes) {
        router.register(WellbeingRPC.tips) { try $0.tips($1) }
        router.register(WellbeingRPC.tipRandom) { try $0.randomTip($1) }
        router.register(WellbeingRPC.waterAdd) { try $0.addWater($1) }
        router.register(WellbeingRPC.waterTotal) { try $0.waterTotal($1) }
        router.register(WellbeingRPC.waterGoal) { try $0.waterGoal($1) }
        router.register(WellbeingRPC.waterRemind) { try $0.waterRemind($1) }
        router.register(WellbeingRPC.waterImport) { try $0.importWater($1) }
        waterRecordRoutes(&router)
    }

    // MARK: - Tips

    private func tipFilter(_ p: TipsParams) throws -> (categories: [TipCategory], searches: [String]) {
        (
            try ListFilter.values(p.category, p.categories).map { try TipCategory(parsing: $0) },
            try ListFilter.values(p.search, p.searches).compactMap { try Tips.searchText($0) }
        )
    }

    func tips(_ p: TipsParams) throws -> [Tip] {
        let filter = try tipFilter(p)
        return Tips.matching(categories: filter.categories, searches: filter.searches)
    }

    func randomTip(_ p: TipsParams) throws -> Tip {
        let filter = try tipFilter(p)
        var generator = SystemRandomNumberGenerator()
        guard let tip = Tips.random(categories: filter.categories, searches: filter.searches, using: &generator) else {
            let searches = filter.searches.joined(separator: "', '")
            guard filter.categories.isEmpty else {
                throw ValidationError(
                    field: "search", template: "no tip in %s mentions '%s'",
                    filter.categories.map(\.rawValue).joined(separator: ", "), searches)
            }
            throw ValidationError(field: "search", template: "no tip mentions '%s'", searches)
        }
        return tip
    }

    // MARK: - Water

    /// The daemon's zone: days of water intake are its local days.
    var waterZone: TimeZone { zone.current }

    func addWater(_ p: WaterAddParams) throws -> WaterAddResult {
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
        let stored = try store.addWater(record)
        if stored.added {
            logger.info(
                "water logged: \(stored.record.amountMl) ml",
                metadata: ["item_id": "\(stored.record.id ?? 0)", "item_kind": "water"])
            try replanWater()
        }
        return WaterAddResult(
            record: stored.record, added: stored.added, day: try waterDay(LocalDate(stored.record.start, in: waterZone))
        )
    }

    func waterTotal(_ p: WaterTotalParams) throws -> WaterTotalResult {
        let (from, to) = try waterRange(p)
        let goal = try store.waterGoal()
        let days = try store.waterDays(from: from, to: to, zone: waterZone).map {
            WaterDay(day: $0.day, totalMl: $0.totalMl, count: $0.count, goalMl: goal)
        }
        return WaterTotalResult(
            from: from, to: to, totalMl: days.reduce(0) { $0 + $1.totalMl }, count: days.reduce(0) { $0 + $1.count },
            goalMl: goal, days: days)
    }

    /// The range a water request asks about: both ends as given, the missing ones to their day's
    /// bounds, today when neither is given.
    func waterRange(_ p: WaterTotalParams) throws -> (from: Date, to: Date) {
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
        guard LocalDate(from, in: waterZone).days(until: LocalDate(to, in: waterZone)) <= Self.maxWaterDays else {
            throw ValidationError(field: "to", template: "the range is too long: at most %s days", Self.maxWaterDays)
        }
        return (from, to)
    }

    func waterGoal(_ p: WaterGoalParams) throws -> WaterGoalResult {
        if p.off == true, p.goalMl != nil {
            throw ValidationError(field: "goalMl", template: "cannot be combined with \"off\"")
        }
        if p.off == true {
            try store.setWaterGoal(nil)
            try replanWater()
        } else if let goal = p.goalMl {
            try store.setWaterGoal(try WaterAmount.goal(goal))
            logger.info("daily water goal set to \(goal) ml")
            try replanWater()
        }
        return WaterGoalResult(goalMl: try store.waterGoal())
    }

    func waterRemind(_ p: WaterRemindParams) throws -> WaterRemindResult {
        var reminder = try store.waterReminder()
        let changes = p.everySeconds != nil || p.windowStart != nil || p.windowEnd != nil
        if let every = p.everySeconds { reminder.everySeconds = every }
        if let start = p.windowStart { reminder.windowStart = start }
        if let end = p.windowEnd { reminder.windowEnd = end }
        if let enabled = p.enabled { reminder.enabled = enabled } else if changes { reminder.enabled = true }
        if changes || p.enabled != nil {
            reminder = try reminder.validated()
            try store.setWaterReminder(reminder)
            logger.info(
                "water reminders \(reminder.enabled ? "on: every \(DurationParser.format(reminder.everySeconds)) between \(reminder.windowStart) and \(reminder.windowEnd)" : "off")"
            )
            try replanWater()
        }
        return WaterRemindResult(
            reminder, upcoming: reminder.enabled ? try store.plannedWaterReminders(after: clock()) : [])
    }

    func importWater(_ p: WaterImportParams) throws -> WaterImportResult {
        let records = try p.records.enumerated().map { index, record in
            do {
                return try Validation.waterRecord(record)
            } catch let error as ValidationError {
                throw error.within("records[\(index)]")
            }
        }
        let counts = try store.importWater(records)
        logger.info("water import: \(counts.inserted) new, \(counts.skipped) already present")
        if counts.inserted > 0 { try replanWater() }
        return WaterImportResult(inserted: counts.inserted, skipped: counts.skipped)
    }

    func waterDay(_ day: LocalDate) throws -> WaterDay {
        let total = try store.waterTotal(on: day, zone: waterZone)
        return WaterDay(day: day, totalMl: total.totalMl, count: total.count, goalMl: try store.waterGoal())
    }

    /// Intake, goal or reminder settings changed: today's reminders may stop or start again.
    func replanWater() throws {
        try store.planWater(now: clock(), zone: waterZone)
        scheduler.wake(.edited)
    }
}
