import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("All-day appointments' reminders: real beautyctl", .serialized)
    struct AllDayReminders {
        @Test(
            "a timed appointment edited to all-day reminds 09:00 the day before (1d) and 2h before its midnight, and lasts the day; a reminder after the all-day time is warned of"
        )
        func editedToAllDay() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            func at(_ day: Int, _ hour: Int) -> Date {
                LocalTime.instant(year: 2030, month: 3, day: day, hour: hour, in: testTimeZone)!
            }
            let added = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Haircut", "--at", "2030-03-05 16:00",
                    "--remind", "1d", "--remind", "2h",
                ], as: AppointmentDetail.self)
            let id = try #require(added.appointment.id)
            #expect(added.deliveries.map(\.trigger.fireAt) == [at(4, 16), at(5, 14)])

            let edited = try await stack.beautyctlOK(["appointment", "edit", "\(id)", "--all-day"])
            #expect(
                edited.stdout.contains("reminder:  2030-03-04 09:00 (1d before) — pending")
                    && edited.stdout.contains("reminder:  2030-03-04 22:00 (2h before) — pending")
                    && edited.stderr.isEmpty, "\(edited)")
            #expect(!edited.stdout.contains("16:00"), "nothing keeps the old time: \(edited)")
            let shown = try await stack.beautyctlJSON(["appointment", "show", "\(id)"], as: AppointmentDetail.self)
            #expect(
                shown.appointment.start == at(5, 0) && shown.appointment.durationSeconds == 86_400,
                "\(shown.appointment)")
            #expect(shown.deliveries.map(\.trigger.fireAt) == [at(4, 9), at(4, 22)], "\(shown.deliveries)")
            #expect(shown.allDayReminderTime == ClockTime(hour: 9, minute: 0))
            let day = try await stack.agenda2030([])
            #expect(day.entries.map(\.end) == [at(6, 0)], "it ends at the next midnight, not at 01:00: \(day.entries)")

            // A reminder set for after the start is saved, and beautyctl prints the daemon's warning.
            let late = try await stack.beautyctlOK(["appointment", "edit", "\(id)", "--remind-at", "2030-03-05 12:00"])
            #expect(
                late.stderr.contains(
                    "warning: the reminder at 2030-03-05 12:00 comes after the start (2030-03-05 00:00)"), "\(late)")
            let spa = try await stack.beautyctlOK([
                "appointment", "add", "Spa", "--at", "2030-03-07", "--all-day", "--remind", "1d",
                "--remind-at", "2030-03-08 10:00",
            ])
            #expect(spa.stdout.contains("reminder:  2030-03-06 09:00 (1d before) — pending"), "\(spa)")
            #expect(
                spa.stderr.contains(
                    "warning: the reminder at 2030-03-08 10:00 comes after the start (2030-03-07 00:00)"), "\(spa)")
        }
    }
}

extension EndToEndTiming {
    @Suite(
        "All-day appointments remind at the configured time of day: real beautyctl and notification server", .serialized
    )
    struct AllDayReminderTime {
        @Test(
            "[appointments] all_day_reminder_time: a 1d lead on tomorrow's all-day visit fires today at that time, not at midnight"
        )
        func aWholeDayLeadFiresAtTheConfiguredTime() async throws {
            // The configured time is a whole minute: the next one at least 15 s from now; the visit is the day after.
            let target = Date(
                timeIntervalSince1970: ((wholeSecond(after: 15).timeIntervalSince1970 / 60).rounded(.up)) * 60)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = testTimeZone
            let day = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: 1, to: target)!)
            let visitDay = String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
            let stack = try await Stack.start(
                config: "[appointments]\nall_day_reminder_time = \"\(localClock(target))\"\n")
            defer { stack.shutdown() }
            let added = try await stack.beautyctlOK([
                "appointment", "add", "Spa", "--at", visitDay, "--all-day", "--remind", "1d",
            ])
            let times = Timestamps(zone: testTimeZone)
            #expect(added.stdout.contains("reminder:  \(times.short(target)) (1d before) — pending"), "\(added)")
            let calls = await stack.waitForNotifications(1, timeout: .seconds(100))
            let call = try #require(calls.first, "no reminder: the lead was counted from midnight\n\(stack.logs)")
            #expect(call.summary == "Spa", "\(call)")
            #expect(call.time >= target.timeIntervalSince1970 - 1, "it fired before its time: \(call)")
        }
    }
}
