import BeautyCore
import Foundation

/// `water.add`: one drink. `uuid` is optional: a retry with the same one adds nothing.
public struct WaterAddParams: Codable, Sendable {
    public var amountMl: Int
    /// When it was drunk (default: now); not in the future.
    public var at: Date?
    /// When drinking it ended (optional, not before `at`).
    public var until: Date?
    public var uuid: String?
    public init(amountMl: Int, at: Date? = nil, until: Date? = nil, uuid: String? = nil) {
        self.amountMl = amountMl
        self.at = at
        self.until = until
        self.uuid = uuid
    }
}

/// The water drunk on one local day, and whether it reached the daily goal.
public struct WaterDay: Codable, Sendable, Equatable {
    public var day: LocalDate
    public var totalMl: Int
    /// How many records.
    public var count: Int
    /// Only when a goal is set (today's goal, applied to every day shown).
    public var goalMl: Int?
    public var goalReached: Bool?
    public init(day: LocalDate, totalMl: Int, count: Int, goalMl: Int?) {
        self.day = day
        self.totalMl = totalMl
        self.count = count
        self.goalMl = goalMl
        goalReached = goalMl.map { totalMl >= $0 }
    }
}

public struct WaterAddResult: Codable, Sendable {
    public var record: WaterRecord
    /// False when a record with this uuid already existed (it is returned unchanged).
    public var added: Bool
    /// The record's day, with it.
    public var day: WaterDay
    public init(record: WaterRecord, added: Bool, day: WaterDay) {
        self.record = record
        self.added = added
        self.day = day
    }
}

/// `water.total` and `water.list`: default today (the daemon's local day).
public struct WaterRangeParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    /// `water.list`'s order: `sort` (`time`, the only key drinks have), `reverse` descending. `water.total` ignores them.
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }
}

public struct WaterTotalResult: Codable, Sendable {
    public var from: Date
    public var to: Date
    public var totalMl: Int
    public var count: Int
    public var goalMl: Int?
    /// Every local day the range touches, empty days included, oldest first.
    public var days: [WaterDay]
    public init(from: Date, to: Date, totalMl: Int, count: Int, goalMl: Int?, days: [WaterDay]) {
        self.from = from
        self.to = to
        self.totalMl = totalMl
        self.count = count
        self.goalMl = goalMl
        self.days = days
    }
}

/// `water.goal`: set it with `goalMl`, remove it with `off`, or neither to read it.
public struct WaterGoalParams: Codable, Sendable {
    public var goalMl: Int?
    public var off: Bool?
    public init(goalMl: Int? = nil, off: Bool? = nil) {
        self.goalMl = goalMl
        self.off = off
    }
}

public struct WaterGoalResult: Codable, Sendable {
    /// Absent: no goal.
    public var goalMl: Int?
    public init(goalMl: Int?) { self.goalMl = goalMl }
}

/// `water.remind`: `enabled` false switches reminders off; `everySeconds` and/or the window set
/// them (and switch them on); `enabled` true alone switches the last settings back on; no params reads.
public struct WaterRemindParams: Codable, Sendable {
    public var enabled: Bool?
    public var everySeconds: Int?
    public var windowStart: ClockTime?
    public var windowEnd: ClockTime?
    public init(
        enabled: Bool? = nil, everySeconds: Int? = nil, windowStart: ClockTime? = nil, windowEnd: ClockTime? = nil
    ) {
        self.enabled = enabled
        self.everySeconds = everySeconds
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }
}

public struct WaterRemindResult: Codable, Sendable {
    public var enabled: Bool
    public var everySeconds: Int
    public var windowStart: ClockTime
    public var windowEnd: ClockTime
    /// The next reminders still planned (up to 5; today's stop once its goal is reached).
    public var upcoming: [Date]
    public init(_ reminder: WaterReminder, upcoming: [Date]) {
        enabled = reminder.enabled
        everySeconds = reminder.everySeconds
        windowStart = reminder.windowStart
        windowEnd = reminder.windowEnd
        self.upcoming = upcoming
    }
}

/// `water.import`: records read from a file (`beautyctl water import` parses CSV or JSON itself).
public struct WaterImportParams: Codable, Sendable {
    public var records: [WaterRecord]
    public init(records: [WaterRecord]) { self.records = records }
}

public struct WaterImportResult: Codable, Sendable {
    public var inserted: Int
    /// Already present (same uuid), left as they were.
    public var skipped: Int
    public init(inserted: Int, skipped: Int) {
        self.inserted = inserted
        self.skipped = skipped
    }
}

/// `water.edit`: fields given replace the record's; `clearUntil` removes its end. Its day's total
/// changes, so the day's reminders are planned again.
public struct WaterEditParams: Codable, Sendable {
    public var id: Int64
    public var amountMl: Int?
    /// Not in the future.
    public var at: Date?
    public var until: Date?
    public var clearUntil: Bool?
    public init(id: Int64, amountMl: Int? = nil, at: Date? = nil, until: Date? = nil, clearUntil: Bool? = nil) {
        self.id = id
        self.amountMl = amountMl
        self.at = at
        self.until = until
        self.clearUntil = clearUntil
    }
}

/// `water.edit` and `water.rm`: the record (as changed, or as it was) and its day afterwards.
public struct WaterRecordResult: Codable, Sendable {
    public var record: WaterRecord
    public var day: WaterDay
    public init(record: WaterRecord, day: WaterDay) {
        self.record = record
        self.day = day
    }
}

public enum WaterRPC {
    public static let add = RPC<WaterAddParams, WaterAddResult>("water.add")
    public static let total = RPC<WaterRangeParams, WaterTotalResult>("water.total")
    public static let goal = RPC<WaterGoalParams, WaterGoalResult>("water.goal")
    public static let remind = RPC<WaterRemindParams, WaterRemindResult>("water.remind")
    public static let `import` = RPC<WaterImportParams, WaterImportResult>("water.import")
    /// Records that started in the range (default today), earliest first.
    public static let list = RPC<WaterRangeParams, [WaterRecord]>("water.list")
    public static let edit = RPC<WaterEditParams, WaterRecordResult>("water.edit")
    public static let remove = RPC<IDParams, WaterRecordResult>("water.rm")

    static let methods = [
        add.method, total.method, goal.method, remind.method, `import`.method, list.method, edit.method, remove.method,
    ]
}
