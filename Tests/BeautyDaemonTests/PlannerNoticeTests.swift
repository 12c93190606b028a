import BeautyCore
import BeautyLocalization
@testable import BeautyDaemon
import BeautyStore
import BeautyTestSupport
import Foundation
import Testing

/// What the scheduler shows for a water reminder or the daily tip (NotificationContent), with an injected `now`.
@Suite("Planner notices: water reminders stop at the goal, the daily tip")
struct PlannerNoticeTests {
    let zone = testTimeZone

    func at(_ day: LocalDate, _ hour: Int, _ minute: Int = 0) -> Date {
        LocalTime.instant(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, in: zone)!
    }

    func withStore(_ body: (AppDatabase) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "beautyd-notice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(try AppDatabase.open(path: directory.appendingPathComponent("db.sqlite").path))
    }

    @Test func aWaterReminderShowsProgressAndIsSkippedOnceTheGoalIsReached() throws {
        try withStore { store in
            let content = NotificationContent(store: store, zone: zone)
            let day = LocalDate(year: 2030, month: 1, day: 15)
            try store.water.setReminder(
                WaterReminder(
                    enabled: true, everySeconds: 7200, windowStart: ClockTime(hour: 9, minute: 0),
                    windowEnd: ClockTime(hour: 21, minute: 0)))
            try store.water.setGoal(1000)
            func trigger(_ day: LocalDate, _ hour: Int) -> Trigger {
                Trigger(
                    key:
                        "water/\(Int64(day.start(in: zone).timeIntervalSince1970))/\(Int64(at(day, hour).timeIntervalSince1970))",
                    itemKind: .water, itemID: 0, occurrence: day.start(in: zone), fireAt: at(day, hour))
            }
            let now = at(day, 15).addingTimeInterval(0.2)
            let first = try #require(try content.plannerNotice(trigger(day, 15), now: now))
            #expect(first.summary == "Time for a glass of water")
            #expect(first.body.hasPrefix("Today so far: 0 of 1000 ml (0%)."), "\(first.body)")
            #expect(
                first.category == "x-beautyd.water" && first.key == trigger(day, 15).key && first.urgency == .normal)

            _ = try store.water.add(WaterRecord(uuid: "a", amountMl: 600, start: at(day, 10)))
            #expect(
                try content.plannerNotice(trigger(day, 17), now: at(day, 17))?.body.hasPrefix(
                    "Today so far: 600 of 1000 ml (60%).") == true)
            _ = try store.water.add(WaterRecord(uuid: "b", amountMl: 400, start: at(day, 17, 30)))
            #expect(
                try content.plannerNotice(trigger(day, 19), now: at(day, 19)) == nil, "the goal is reached: skipped")
            let tomorrow = day.adding(days: 1)
            #expect(
                try content.plannerNotice(trigger(tomorrow, 9), now: at(tomorrow, 9)) != nil,
                "a new day starts from zero")
            // Late delivery of yesterday's reminder: not worth showing.
            #expect(try content.plannerNotice(trigger(day, 21), now: at(tomorrow, 8)) == nil)
            // Without a goal: the amount alone.
            try store.water.setGoal(nil)
            #expect(
                try content.plannerNotice(trigger(day, 19), now: at(day, 19))?.body.hasPrefix("Today so far: 1000 ml.")
                    == true)
            // Switched off meanwhile: skipped.
            var off = try store.water.reminder()
            off.enabled = false
            try store.water.setReminder(off)
            #expect(try content.plannerNotice(trigger(tomorrow, 11), now: at(tomorrow, 11)) == nil)
        }
    }

    @Test func theDailyTipShowsTheTipOfItsDay() throws {
        try withStore { store in
            let content = NotificationContent(store: store, zone: zone)
            let day = LocalDate(year: 2030, month: 1, day: 15)
            let trigger = Trigger(
                key: "tip/1/2", itemKind: .tip, itemID: 13, occurrence: day.start(in: zone), fireAt: at(day, 9))
            let notice = try #require(try content.plannerNotice(trigger, now: at(day, 9)))
            #expect(notice.summary == "Beauty tip: Sleep on silk")
            #expect(
                notice.body.contains("silk or satin pillowcase")
                    && notice.body.contains("beautyctl tips --category hair"), "\(notice.body)")
            #expect(notice.category == ItemKind.tip.notificationCategory && notice.urgency == .low)
            // In Polish and Slovak the command names the category as the reader says it (`--category` takes it).
            for (language, line) in [
                (Language.polish, "(Włosy — więcej: beautyctl tips --category włosy)"),
                (.slovak, "(Vlasy — viac: beautyctl tips --category vlasy)"),
            ] {
                let translated = NotificationContent(store: store, zone: zone, localizer: .forLanguage(language))
                let body = try #require(try translated.plannerNotice(trigger, now: at(day, 9))).body
                #expect(body.hasSuffix("\n" + line), "\(body)")
                #expect(try TipCategory(parsing: "włosy") == .hair && TipCategory(parsing: "vlasy") == .hair)
            }
            var unknown = trigger
            unknown.itemID = 9999
            #expect(
                try content.plannerNotice(unknown, now: at(day, 9))?.summary
                    == "Beauty tip: \(Tips.ofTheDay(day).title)")
        }
    }
}
