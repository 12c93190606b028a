import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

/// A Warsaw wall-clock instant ("2030-01-15 08:30").
private func at(_ text: String) -> Date {
    let parts = text.split(separator: " ")
    let ymd = parts[0].split(separator: "-").map { Int($0)! }
    let hm = parts.count > 1 ? parts[1].split(separator: ":").map { Int($0)! } : [0, 0]
    return LocalTime.instant(year: ymd[0], month: ymd[1], day: ymd[2], hour: hm[0], minute: hm[1], in: warsawZone)!
}

private let warsawZone = TimeZone(identifier: "Europe/Warsaw")!

@Suite("Store: water records, totals, goal, reminders and the daily tip in the ledger")
struct WaterStoreTests {
    let day = LocalDate(year: 2030, month: 1, day: 15)
    let every2h = WaterReminder(
        enabled: true, everySeconds: 7200, windowStart: ClockTime(hour: 9, minute: 0),
        windowEnd: ClockTime(hour: 21, minute: 0))

    func drink(_ uuid: String, _ ml: Int, _ time: String) -> WaterRecord {
        WaterRecord(uuid: uuid, amountMl: ml, start: at(time))
    }

    func pending(_ db: AppDatabase, _ kind: ItemKind) throws -> [Trigger] {
        try db.writer.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT key, itemID, occurrence, fireAt FROM delivery WHERE itemKind = ? AND state = 'pending' ORDER BY fireAt",
                arguments: [kind.rawValue]
            ).map {
                Trigger(
                    key: $0["key"], itemKind: kind, itemID: $0["itemID"], occurrence: $0["occurrence"],
                    fireAt: $0["fireAt"])
            }
        }
    }

    func states(_ db: AppDatabase, _ kind: ItemKind) throws -> [String: String] {
        try db.writer.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT key, state FROM delivery WHERE itemKind = ?",
                    arguments: [kind.rawValue]
                ).map { ($0["key"] as String, $0["state"] as String) })
        }
    }

    @Test func aDrinkIsStoredOncePerUUID() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try temp.open()
        let first = try db.water.add(
            WaterRecord(uuid: "A", amountMl: 250, start: at("2030-01-15 08:30"), end: at("2030-01-15 08:40")))
        #expect(first.added && first.record.id == 1 && first.record.end == at("2030-01-15 08:40"))
        let again = try db.water.add(WaterRecord(uuid: "A", amountMl: 999, start: at("2030-01-15 09:00")))
        #expect(!again.added && again.record == first.record, "a known uuid must keep its record: \(again)")
        #expect(try db.water.count() == 1)
        // Survives reopening the file.
        let reopened = try temp.open()
        #expect(try reopened.water.records(from: at("2030-01-15 00:00"), to: at("2030-01-16 00:00")) == [first.record])
    }

    @Test func importingTheSameRecordsTwiceAddsNothingTheSecondTime() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.water.add(drink("known", 100, "2030-01-14 20:00"))
        let records = [
            drink("known", 100, "2030-01-14 20:00"), drink("h1", 250, "2030-01-15 08:00"),
            drink("h2", 330, "2030-01-15 12:00"),
        ]
        let first = try db.water.importRecords(records)
        #expect(first.inserted == 2 && first.skipped == 1)
        let second = try db.water.importRecords(records)
        #expect(second.inserted == 0 && second.skipped == 3)
        #expect(try db.water.count() == 3)
        #expect(try db.water.importRecords([]) == (0, 0))
    }

    @Test func totalsPerLocalDayIncludeEmptyDaysAndCountOnTheDayADrinkStarted() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.water.importRecords([
            drink("a", 250, "2030-01-15 00:10"), drink("b", 300, "2030-01-15 23:50"),
            drink("c", 500, "2030-01-17 07:00"),
            drink("before", 1000, "2030-01-14 23:59"),
        ])
        let days = try db.water.days(from: at("2030-01-15 00:00"), to: at("2030-01-18 00:00"), zone: warsawZone)
        #expect(days.map(\.day.description) == ["2030-01-15", "2030-01-16", "2030-01-17"])
        #expect(days.map(\.totalMl) == [550, 0, 500])
        #expect(days.map(\.count) == [2, 0, 1])
        #expect(try db.water.total(on: day, zone: warsawZone) == (550, 2))
        // The same instants are another day in another zone: days are the zone's.
        let utcDays = try db.water.days(
            from: at("2030-01-15 00:00"), to: at("2030-01-16 00:00"), zone: TimeZone(identifier: "UTC")!)
        #expect(utcDays.map(\.day.description) == ["2030-01-14", "2030-01-15"])
        #expect(utcDays.map(\.totalMl) == [250, 300])
        #expect(try db.water.days(from: at("2030-01-15 00:00"), to: at("2030-01-15 00:00"), zone: warsawZone).isEmpty)
    }

    @Test func goalAndReminderSettingsRoundTrip() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try temp.open()
        #expect(try db.water.goal() == nil)
        #expect(try db.water.reminder() == .standard)
        try db.water.setGoal(2000)
        try db.water.setReminder(every2h)
        let reopened = try temp.open()
        #expect(try reopened.water.goal() == 2000)
        #expect(try reopened.water.reminder() == every2h)
        try reopened.water.setGoal(nil)
        #expect(try reopened.water.goal() == nil)
        #expect(try !reopened.water.goalReached(on: day, zone: warsawZone), "no goal, nothing reached")
    }

    @Test func remindersArePlannedForTheRestOfTodayAndTomorrowIdempotently() throws {
        let db = try AppDatabase.inMemory()
        let now = at("2030-01-15 14:00")
        try db.planWater(now: now, zone: warsawZone)
        #expect(try pending(db, .water).isEmpty, "reminders are off until switched on")

        try db.water.setReminder(every2h)
        try db.planWater(now: now, zone: warsawZone)
        let planned = try pending(db, .water)
        let today = ["15:00", "17:00", "19:00", "21:00"].map { at("2030-01-15 \($0)") }
        let tomorrow = ["09:00", "11:00", "13:00", "15:00", "17:00", "19:00", "21:00"].map { at("2030-01-16 \($0)") }
        #expect(planned.map(\.fireAt) == today + tomorrow)
        let dayStart = Int64(at("2030-01-15 00:00").timeIntervalSince1970)
        #expect(planned.first?.key == "water/\(dayStart)/\(Int64(today[0].timeIntervalSince1970))")
        #expect(planned.first?.occurrence == at("2030-01-15 00:00") && planned.first?.itemID == 0)
        try db.planWater(now: now, zone: warsawZone)
        #expect(try pending(db, .water) == planned, "planning again must not add or change anything")
        #expect(try db.water.plannedReminders(after: now, limit: 2) == Array(today.prefix(2)))

        // Through the ledger like every other trigger.
        #expect(try db.deliveries.due(at: today[0]).map(\.key) == [planned[0].key])
        #expect(try db.deliveries.next(after: now)?.key == planned[0].key)

        // New settings replace what was planned; switched off, nothing stays.
        var hourly = every2h
        hourly.everySeconds = 3600
        hourly.windowEnd = ClockTime(hour: 16, minute: 0)
        try db.water.setReminder(hourly)
        try db.planWater(now: now, zone: warsawZone)
        #expect(
            try pending(db, .water).map(\.fireAt) == [at("2030-01-15 15:00"), at("2030-01-15 16:00")]
                + (9...16).map { at("2030-01-16 \(String(format: "%02d", $0)):00") })
        hourly.enabled = false
        try db.water.setReminder(hourly)
        try db.planWater(now: now, zone: warsawZone)
        #expect(try pending(db, .water).isEmpty)
        #expect(try db.water.plannedReminders(after: now).isEmpty)
    }

    @Test func onceTheGoalIsReachedTheRestOfThatDaysRemindersAreSkipped() throws {
        let db = try AppDatabase.inMemory()
        try db.water.setReminder(every2h)
        try db.water.setGoal(1000)
        let now = at("2030-01-15 14:00")
        _ = try db.water.add(drink("a", 600, "2030-01-15 08:00"))
        try db.planWater(now: now, zone: warsawZone)
        #expect(try pending(db, .water).filter { $0.fireAt < at("2030-01-16 00:00") }.count == 4)
        #expect(try db.water.reminderWanted(at: at("2030-01-15 15:00"), zone: warsawZone))

        _ = try db.water.add(drink("b", 400, "2030-01-15 14:05"))
        let later = at("2030-01-15 14:06")
        #expect(try db.water.goalReached(on: day, zone: warsawZone))
        #expect(
            try !db.water.reminderWanted(at: at("2030-01-15 15:00"), zone: warsawZone),
            "the goal is reached: no more reminders today")
        #expect(try db.water.reminderWanted(at: at("2030-01-16 09:00"), zone: warsawZone), "tomorrow starts from zero")
        try db.planWater(now: later, zone: warsawZone)
        let left = try pending(db, .water)
        #expect(
            left.map(\.fireAt)
                == ["09:00", "11:00", "13:00", "15:00", "17:00", "19:00", "21:00"].map { at("2030-01-16 \($0)") },
            "today's reminders should be gone, tomorrow's kept: \(left)")

        // A higher goal brings today's back.
        try db.water.setGoal(1500)
        try db.planWater(now: later, zone: warsawZone)
        #expect(try pending(db, .water).first?.fireAt == at("2030-01-15 15:00"))
    }

    @Test func ofRemindersDueButNotShownOnlyTheLatestIsKept() throws {
        let db = try AppDatabase.inMemory()
        try db.water.setReminder(every2h)
        try db.planWater(now: at("2030-01-15 08:00"), zone: warsawZone)
        // Nothing was delivered (no server, or the daemon was down) until 13:30.
        let now = at("2030-01-15 13:30")
        try db.planWater(now: now, zone: warsawZone)
        let due = try db.deliveries.due(at: now)
        #expect(due.map(\.fireAt) == [at("2030-01-15 13:00")], "only the latest due reminder is worth showing: \(due)")
        let recorded = try states(db, .water)
        let missed = recorded.filter { $0.value == "missed" }.keys.sorted()
        #expect(missed.count == 2, "09:00 and 11:00 are recorded as missed, not dropped: \(recorded)")

        // The goal reached meanwhile: the one left is not shown either.
        try db.water.setGoal(500)
        _ = try db.water.add(drink("a", 500, "2030-01-15 13:10"))
        try db.planWater(now: now, zone: warsawZone)
        #expect(try db.deliveries.due(at: now).isEmpty)
        #expect(try states(db, .water).filter { $0.value == "missed" }.count == 3)
    }

    @Test func theDailyTipIsPlannedForItsTimeOncePerDay() throws {
        let db = try AppDatabase.inMemory()
        let nine = ClockTime(hour: 9, minute: 0)
        try db.planDailyTip(now: at("2030-01-15 08:00"), zone: warsawZone, at: nine)
        var tips = try pending(db, .tip)
        #expect(tips.map(\.fireAt) == [at("2030-01-15 09:00"), at("2030-01-16 09:00")])
        #expect(tips.map(\.itemID) == [Int64(Tips.ofTheDay(day).id), Int64(Tips.ofTheDay(day.adding(days: 1)).id)])
        #expect(
            tips.first?.key
                == "tip/\(Int64(at("2030-01-15 00:00").timeIntervalSince1970))/\(Int64(at("2030-01-15 09:00").timeIntervalSince1970))"
        )

        // Delivered at 09:00; then the time is moved to 10:00: no second tip today.
        try db.deliveries.markFired([tips[0].key], at: at("2030-01-15 09:00"))
        try db.planDailyTip(now: at("2030-01-15 09:30"), zone: warsawZone, at: ClockTime(hour: 10, minute: 0))
        tips = try pending(db, .tip)
        #expect(tips.map(\.fireAt) == [at("2030-01-16 10:00")], "\(tips)")

        // After today's time has passed only tomorrow's; none when switched off.
        try db.planDailyTip(now: at("2030-01-15 11:00"), zone: warsawZone, at: ClockTime(hour: 10, minute: 0))
        #expect(try pending(db, .tip).map(\.fireAt) == [at("2030-01-16 10:00")])
        try db.planDailyTip(now: at("2030-01-15 11:00"), zone: warsawZone, at: nil)
        #expect(try pending(db, .tip).isEmpty)
        #expect(try states(db, .tip).values.sorted() == ["fired"], "the delivered tip stays in the ledger")
    }
}
