import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("CalendarView: the terminal day and week views")
struct CalendarViewTests {
    typealias Entry = CalendarView.Entry
    let monday = LocalDate(year: 2030, month: 1, day: 7)

    /// A fixed Monday: two all-day entries, an early block that widens the hours, two overlapping
    /// blocks, a 15-minute one, one on the day before (not drawn), and now at 11:40.
    var mondayEntries: [Entry] {
        [
            Entry(
                title: "Spa day", start: instant("2030-01-07 00:00"), end: instant("2030-01-08 00:00"), allDay: true,
                color: "teal"),
            Entry(
                title: "Hair wash at home", start: instant("2030-01-07 00:00"), end: instant("2030-01-08 00:00"),
                allDay: true),
            Entry(
                title: "Brow tint", start: instant("2030-01-07 07:15"), end: instant("2030-01-07 07:45"), color: "brown"
            ),
            Entry(
                title: "Haircut", start: instant("2030-01-07 09:00"), end: instant("2030-01-07 10:30"), color: "pink"),
            Entry(
                title: "Manicure hybrydowy", start: instant("2030-01-07 10:00"), end: instant("2030-01-07 11:00"),
                color: "red"),
            Entry(title: "Call salon", start: instant("2030-01-07 13:00"), end: instant("2030-01-07 13:15")),
            Entry(title: "Yesterday", start: instant("2030-01-06 13:00"), end: instant("2030-01-06 13:15")),
        ]
    }

    @Test func aDayWithAllDayEntriesOverlappingBlocksAndTheNowLine() {
        let text = CalendarView.render(
            mondayEntries, days: [monday], zone: warsaw, now: instant("2030-01-07 11:40"), width: 40)
        #expect(
            text == """
                Mon 7 Jan 2030 (today)
                all-day│■ Hair wash at home
                       │■ Spa day
                ───────┼────────────────────────────────
                07:00  │┏ Brow tint
                       │┗ 07:15–07:45
                08:00  │
                       │
                09:00  │┏ Haircut
                       │┃ 09:00–10:30
                10:00  │┗               ┏ Manicure hybr…
                       │                ┗ 10:00–11:00
                11:00  │
                11:40 ▶│────────────────────────────────
                12:00  │
                       │
                13:00  │■ 13:00 Call salon
                       │
                14:00  │
                       │
                15:00  │
                       │
                16:00  │
                       │
                17:00  │
                       │
                18:00  │
                       │
                19:00  │
                       │

                """)
    }

    @Test func aWeekSideBySideWithAMultiDayAllDayEntryAndTodayMarked() {
        let entries = [
            Entry(
                title: "Massage", start: instant("2030-01-08 18:00"), end: instant("2030-01-08 19:30"), color: "blue"),
            Entry(
                title: "Conference", start: instant("2030-01-10 00:00"), end: instant("2030-01-12 00:00"), allDay: true,
                color: "gray"),
            Entry(
                title: "Facial", start: instant("2030-01-09 10:00"), end: instant("2030-01-09 11:00"), color: "purple"),
            Entry(title: "Nails", start: instant("2030-01-09 10:30"), end: instant("2030-01-09 11:30"), color: "green"),
            Entry(
                title: "Pedicure", start: instant("2030-01-12 08:00"), end: instant("2030-01-12 08:30"),
                color: "#ffcc00"),
            Entry(title: "Next week", start: instant("2030-01-14 08:00"), end: instant("2030-01-14 09:00")),
        ]
        let days = CalendarView.week(containing: LocalDate(year: 2030, month: 1, day: 9), zone: warsaw)
        // At 80 columns seven days side by side would get 9 characters each ("┏ F…"): two bands instead,
        // Monday to Thursday and Friday to Sunday, the same hours and column widths, one under the other.
        let text = CalendarView.render(entries, days: days, zone: warsaw, now: instant("2030-01-09 16:05"), width: 80)
        #expect(
            text == """
                Mon 7 Jan 2030 – Sun 13 Jan 2030
                       │Mon 7             │Tue 8            │*Wed 9           │Thu 10
                all-day│                  │                 │                 │■ Conference
                ───────┼──────────────────┼─────────────────┼─────────────────┼─────────────────
                08:00  │                  │                 │                 │
                       │                  │                 │                 │
                09:00  │                  │                 │                 │
                       │                  │                 │                 │
                10:00  │                  │                 │┏ Facial         │
                       │                  │                 │┗ 10:00… ┏ Nails │
                11:00  │                  │                 │         ┗ 10:30…│
                       │                  │                 │                 │
                12:00  │                  │                 │                 │
                       │                  │                 │                 │
                13:00  │                  │                 │                 │
                       │                  │                 │                 │
                14:00  │                  │                 │                 │
                       │                  │                 │                 │
                15:00  │                  │                 │                 │
                       │                  │                 │                 │
                16:05 ▶│                  │                 │─────────────────│
                       │                  │                 │                 │
                17:00  │                  │                 │                 │
                       │                  │                 │                 │
                18:00  │                  │┏ Massage        │                 │
                       │                  │┃ 18:00–19:30    │                 │
                19:00  │                  │┗                │                 │
                       │                  │                 │                 │

                       │Fri 11            │Sat 12           │Sun 13
                all-day│■ Conference      │                 │
                ───────┼──────────────────┼─────────────────┼─────────────────
                08:00  │                  │■ 08:00 Pedicure │
                       │                  │                 │
                09:00  │                  │                 │
                       │                  │                 │
                10:00  │                  │                 │
                       │                  │                 │
                11:00  │                  │                 │
                       │                  │                 │
                12:00  │                  │                 │
                       │                  │                 │
                13:00  │                  │                 │
                       │                  │                 │
                14:00  │                  │                 │
                       │                  │                 │
                15:00  │                  │                 │
                       │                  │                 │
                16:00  │                  │                 │
                       │                  │                 │
                17:00  │                  │                 │
                       │                  │                 │
                18:00  │                  │                 │
                       │                  │                 │
                19:00  │                  │                 │
                       │                  │                 │

                """)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // Wide enough (16 characters a day), the week is one band and fills the whole width.
        let wide = CalendarView.render(entries, days: days, zone: warsaw, now: instant("2030-01-09 16:05"), width: 160)
        let wideLines = wide.split(separator: "\n").map(String.init)
        #expect(
            wideLines[1].hasSuffix("│Sat 12               │Sun 13")
                && wideLines.filter { $0.hasPrefix("───────┼") }.count == 1,
            "one band:\n\(wide)")
        #expect(wideLines.first { $0.hasPrefix("───────┼") }?.count == 160, "the rule spans the full width:\n\(wide)")
        #expect(wide.contains("│┏ Facial ") && wide.contains("┏ Nails"), "\(wide)")
        #expect(
            wide.contains("■ Conference") && wide.contains("■ 08:00 Pedicure") && !wide.contains("Next week"), "\(wide)"
        )
    }

    @Test func bandsHoldAsManyDaysAsFitEvenly() {
        #expect(CalendarView.bandSize(days: 7, width: 80) == 4)
        #expect(CalendarView.bandSize(days: 7, width: 125) == 4, "six fit, but 4 + 3 rather than 6 + 1")
        #expect(CalendarView.bandSize(days: 7, width: 126) == 7)
        #expect(CalendarView.bandSize(days: 7, width: 60) == 3)
        #expect(CalendarView.bandSize(days: 7, width: 20) == 1)
        #expect(CalendarView.bandSize(days: 1, width: 20) == 1)
        #expect(CalendarView.columnWidths(7, width: 160) == [21, 21, 21, 21, 21, 21, 20])
        #expect(CalendarView.columnWidths(1, width: 40) == [32])
    }

    @Test func coloursAreANSIBackgroundsAndTheNowLineIsRed() {
        let text = CalendarView.render(
            mondayEntries, days: [monday], zone: warsaw, now: instant("2030-01-07 11:40"), width: 40, color: true)
        let lines = text.split(separator: "\n").map(String.init)
        let esc = "\u{1B}["
        func cell(_ sgr: String, _ text: String, _ width: Int) -> String {
            "\(esc)\(sgr)m" + text + String(repeating: " ", count: width - text.count) + "\(esc)0m"
        }
        #expect(lines.contains("all-day│" + cell("7", "■ Hair wash at home", 32)), "no colour: reverse video\n\(text)")
        #expect(lines.contains("       │" + cell("46;30", "■ Spa day", 32)), "teal\n\(text)")
        #expect(lines.contains("07:00  │" + cell("48;5;130;97", "┏ Brow tint", 32)), "brown\n\(text)")
        #expect(
            lines.contains("09:00  │" + cell("48;5;211;30", "┏ Haircut", 15)),
            "pink, half the width (it overlaps)\n\(text)")
        #expect(
            lines.contains("10:00  │" + cell("48;5;211;30", "┗", 15) + " " + cell("41;97", "┏ Manicure hybr…", 16)),
            "\(text)")
        #expect(
            lines.contains("\(esc)31m11:40 ▶\(esc)0m│\(esc)31m" + String(repeating: "─", count: 32) + "\(esc)0m"),
            "\(text)")
        // The same text once the escapes are taken out, but for the trailing spaces inside blocks.
        let plain = CalendarView.render(
            mondayEntries, days: [monday], zone: warsaw, now: instant("2030-01-07 11:40"), width: 40)
        let stripped = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(
            stripped.split(separator: "\n").map {
                $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression)
            }
                == plain.split(separator: "\n").map(String.init))
        #expect(!plain.contains("\u{1B}"))
        // Hex colours are true colour with a readable foreground.
        let hex = CalendarView.render(
            [
                Entry(
                    title: "Gold", start: instant("2030-01-07 09:00"), end: instant("2030-01-07 10:00"),
                    color: "#ffcc00"),
                Entry(
                    title: "Navy", start: instant("2030-01-07 12:00"), end: instant("2030-01-07 13:00"),
                    color: "#000080"),
            ],
            days: [monday], zone: warsaw, now: instant("2030-01-01 12:00"), width: 30, color: true)
        #expect(
            hex.contains("\(esc)48;2;255;204;0;30m┏ Gold") && hex.contains("\(esc)48;2;0;0;128;97m┏ Navy"), "\(hex)")
    }

    @Test func anotherDayHasNoNowLineAndDefaultHours() {
        let text = CalendarView.render([], days: [monday], zone: warsaw, now: instant("2030-01-08 11:40"), width: 30)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "Mon 7 Jan 2030")
        #expect(lines[1] == "all-day│" && lines[2] == "───────┼──────────────────────")
        #expect(
            lines[3] == "08:00  │" && lines.last == "       │" && lines.count == 3 + 24,
            "08:00 to 20:00 in half hours\n\(text)")
        #expect(!text.contains("▶"))
        // Now on that day but late: the hours widen to show the now-line.
        let late = CalendarView.render([], days: [monday], zone: warsaw, now: instant("2030-01-07 22:10"), width: 30)
        #expect(
            late.contains("22:10 ▶│──────────────────────")
                && late.hasSuffix("22:10 ▶│──────────────────────\n       │\n"), "\(late)")
    }

    @Test func blocksCrossingMidnightAndLongOnesAreSplitAcrossDays() {
        let entries = [
            Entry(title: "Late party", start: instant("2030-01-11 23:00"), end: instant("2030-01-12 01:00")),
            Entry(
                title: "Retreat", start: instant("2030-01-12 00:00"), end: instant("2030-01-14 12:00"), color: "green"),
        ]
        let friday = CalendarView.render(
            entries, days: [LocalDate(year: 2030, month: 1, day: 11)], zone: warsaw,
            now: instant("2030-01-01 00:00"), width: 40)
        #expect(friday.hasSuffix("23:00  │┏ Late party\n       │┗ 23:00–01:00\n"), "\(friday)")
        #expect(!friday.contains("Retreat"))
        let saturday = CalendarView.render(
            entries, days: [LocalDate(year: 2030, month: 1, day: 12)], zone: warsaw,
            now: instant("2030-01-01 00:00"), width: 40)
        let lines = saturday.split(separator: "\n").map(String.init)
        #expect(
            lines[1] == "all-day│■ Retreat", "a timed entry covering the whole day is in the all-day row\n\(saturday)")
        #expect(
            lines[3] == "00:00  │┏ Late party" && lines[4] == "       │┗ 23:00–01:00" && lines[5] == "01:00  │",
            "\(saturday)")
        let monday14 = CalendarView.render(
            entries, days: [LocalDate(year: 2030, month: 1, day: 14)], zone: warsaw,
            now: instant("2030-01-01 00:00"), width: 40)
        let rows = monday14.split(separator: "\n").map(String.init)
        #expect(
            rows[3] == "00:00  │┏ Retreat" && rows[4] == "       │┃ 00:00–12:00" && rows[26] == "       │┗"
                && rows[27] == "12:00  │",
            "from midnight to its end at noon\n\(monday14)")
    }

    @Test func tooManyAtOnceAreCountedNotDrawnOverEachOther() {
        let crowd = (1...8).map {
            Entry(title: "E\($0)", start: instant("2030-01-07 10:00"), end: instant("2030-01-07 11:00"))
        }
        let text = CalendarView.render(crowd, days: [monday], zone: warsaw, now: instant("2030-01-01 00:00"), width: 20)
        // 12 columns hold 6 lanes of one character and a space each.
        #expect(text.contains("10:00  │┏ ┏ ┏ ┏ ┏ ┏"), "\(text)")
        #expect(text.hasSuffix("(+2 more at the same time, too many to draw here: see beautyctl agenda)\n"), "\(text)")
    }

    @Test func aDaylightSavingDayStillDrawsItsBlocks() {
        // 2030-03-31 in Warsaw: 02:00 jumps to 03:00.
        let night = Entry(title: "Night shift", start: instant("2030-03-31 01:30"), end: instant("2030-03-31 03:30"))
        let text = CalendarView.render(
            [night], days: [LocalDate(year: 2030, month: 3, day: 31)], zone: warsaw,
            now: instant("2030-01-01 00:00"), width: 40)
        #expect(text.contains("01:00  │\n       │┏ Night shift\n02:00  │┃ 01:30–03:30\n"), "\(text)")
    }

    @Test func weeksStartOnMonday() {
        let week = CalendarView.week(containing: LocalDate(year: 2030, month: 1, day: 13), zone: warsaw)  // a Sunday
        #expect(week.first == monday && week.last == LocalDate(year: 2030, month: 1, day: 13) && week.count == 7)
        #expect(CalendarView.week(containing: monday, zone: warsaw).first == monday)
        let acrossYears = CalendarView.week(containing: LocalDate(year: 2030, month: 1, day: 1), zone: warsaw)
        #expect(acrossYears.first == LocalDate(year: 2029, month: 12, day: 31))
    }
}
