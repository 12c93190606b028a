import BeautyLocalization
import Foundation

/// The terminal day and week views of `beautyctl calendar`, as a pure function of its inputs (no
/// clock, no terminal, no zone of its own), so a fixed day renders to the same text everywhere.
///
/// Hours run down the side in half-hour rows; an appointment is a block as tall as it lasts,
/// `┏ title` / `┃ 09:00–10:30` / `┗`, in its colour when colour is on. Appointments that overlap
/// share the column side by side. All-day appointments (and timed ones that cover the whole day)
/// sit in the all-day row above the hours. On today, the row of the current time is the now-line:
/// its time in the margin and `─` across the free part of today's column.
///
///     Mon 7 Jan 2030 (today)
///     all-day│■ Spa day
///     ───────┼──────────────────
///     08:00  │
///            │
///     09:00  │┏ Haircut
///            │┃ 09:00–10:30
///     10:00  │┗
///     10:12 ▶│──────────────────
public enum CalendarView {
    public struct Entry: Sendable, Equatable {
        public var title: String
        public var start: Date
        public var end: Date
        public var allDay: Bool
        /// A `TerminalColor` name or `#rrggbb`; nil draws the block in reverse video.
        public var color: String?

        public init(title: String, start: Date, end: Date, allDay: Bool = false, color: String? = nil) {
            self.title = title
            self.start = start
            self.end = end
            self.allDay = allDay
            self.color = color
        }
    }

    /// Minutes per row.
    public static let slotMinutes = 30
    /// Hours always shown, widened to whatever the entries (and the now-line) need.
    public static let defaultHours = 8..<20
    static let gutterWidth = 7
    static let slotsPerDay = 24 * 60 / slotMinutes

    /// The Monday-to-Sunday week that contains `day`.
    public static func week(containing day: LocalDate, zone: TimeZone) -> [LocalDate] {
        let weekday = LocalTime.calendar(zone).component(.weekday, from: day.start(in: zone))  // 1 = Sunday
        let monday = day.adding(days: -((weekday + 5) % 7))
        return (0..<7).map { monday.adding(days: $0) }
    }

    /// Draws `days` (one: the day view; several: side by side, e.g. a week) with the entries that fall
    /// on them, in `zone`, `width` characters wide. Lines end in "\n" and carry no trailing spaces.
    ///
    /// Days narrower than `minColumnWidth` would cut every title to a letter, so when the width cannot
    /// hold them all side by side they are drawn in bands of as many as fit (a week at 80 columns: Monday
    /// to Thursday, then Friday to Sunday), one under the other with the same hours and column widths.
    /// Whatever width is left after dividing goes to the first columns, so the whole width is used.
    public static func render(
        _ entries: [Entry], days: [LocalDate], zone: TimeZone, now: Date,
        width: Int = 80, color: Bool = false, localizer l: Localizer = .english
    ) -> String {
        guard !days.isEmpty else { return "" }
        let times = Timestamps(zone: zone, language: l.language)
        let perBand = bandSize(days: days.count, width: width)
        let widths = columnWidths(perBand, width: width)
        let bands = stride(from: 0, to: days.count, by: perBand).map { first in
            days[first..<min(first + perBand, days.count)].enumerated().map { index, day in
                Column(day: day, entries: entries, zone: zone, now: now, width: widths[index])
            }
        }
        let paint = Paint(enabled: color)

        // Rows from the earliest to the latest hour anything needs, at least the default hours.
        var firstSlot = defaultHours.lowerBound * 60 / slotMinutes
        var endSlot = defaultHours.upperBound * 60 / slotMinutes
        for column in bands.joined() {
            for block in column.blocks {
                firstSlot = min(firstSlot, block.first)
                endSlot = max(endSlot, block.end)
            }
            if let slot = column.nowSlot {
                firstSlot = min(firstSlot, slot)
                endSlot = max(endSlot, slot + 1)
            }
        }
        let perHour = 60 / slotMinutes
        firstSlot -= firstSlot % perHour
        endSlot = min(slotsPerDay, endSlot + (perHour - endSlot % perHour) % perHour)

        var lines: [String] = []
        if days.count == 1 {
            let day = times.day(days[0].start(in: zone))
            lines.append(bands[0][0].nowSlot != nil ? l.tr("%s (today)", day) : day)
        } else {
            lines.append("\(times.day(days[0].start(in: zone))) – \(times.day(days[days.count - 1].start(in: zone)))")
        }
        for (index, columns) in bands.enumerated() {
            if index > 0 { lines.append("") }
            lines += grid(
                columns, labels: days.count > 1, slots: firstSlot..<endSlot, times: times, now: now, paint: paint,
                localizer: l)
        }
        let hidden = bands.joined().reduce(0) { $0 + $1.hidden }
        if hidden > 0 {
            lines.append(
                l.trn(
                    "(+%s more at the same time, too many to draw here: see beautyctl agenda)",
                    "(+%s more at the same time, too many to draw here: see beautyctl agenda)", hidden))
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) + "\n" }.joined()
    }

    /// The narrowest a day's column gets before days move to another band: room for "┏ " and a short title.
    public static let minColumnWidth = 16

    /// How many days go side by side: all of them if each gets `minColumnWidth`, else as many as do
    /// (at least one), spread evenly over the bands (7 days in 4 + 3, not 5 + 2).
    public static func bandSize(days: Int, width: Int) -> Int {
        let fit = max(1, (width - gutterWidth) / (minColumnWidth + 1))
        guard fit < days else { return days }
        let bands = (days + fit - 1) / fit
        return (days + bands - 1) / bands
    }

    /// The widths of `count` columns filling `width` (each column is preceded by "│"); the
    /// characters left over from an even split widen the first columns by one each.
    public static func columnWidths(_ count: Int, width: Int) -> [Int] {
        let available = width - gutterWidth
        let base = max(4, available / count - 1)
        let spare = max(0, available - count * (base + 1))
        return (0..<count).map { base + ($0 < spare ? 1 : 0) }
    }

    /// One band of days: the labels (several days), the all-day rows, the rule and the hour rows.
    static func grid(
        _ columns: [Column], labels: Bool, slots: Range<Int>, times: Timestamps, now: Date, paint: Paint,
        localizer l: Localizer
    ) -> [String] {
        let perHour = 60 / slotMinutes
        var lines: [String] = []
        if labels {
            let cells = columns.map { column -> String in
                let label = fit(shortLabel(column.day, times: times, today: column.nowSlot != nil), column.width)
                return column.nowSlot != nil ? paint.today(label) : label
            }
            lines.append(String(repeating: " ", count: gutterWidth) + "│" + cells.joined(separator: "│"))
        }
        let allDayRows = max(1, columns.map(\.allDay.count).max() ?? 0)
        for row in 0..<allDayRows {
            let cells = columns.map { column -> String in
                guard row < column.allDay.count else { return String(repeating: " ", count: column.width) }
                let entry = column.allDay[row]
                return paint.block(fit("■ " + entry.title, column.width), color: entry.color)
            }
            lines.append(
                (row == 0
                    ? fit(l.trc("calendar, at most 7 characters", "all-day"), gutterWidth)
                    : String(repeating: " ", count: gutterWidth)) + "│" + cells.joined(separator: "│"))
        }
        lines.append(
            String(repeating: "─", count: gutterWidth) + "┼"
                + columns.map { String(repeating: "─", count: $0.width) }.joined(separator: "┼"))

        for slot in slots {
            var gutter: String
            if columns.contains(where: { $0.nowSlot == slot }) {
                gutter = paint.now(fit(times.clock(now) + " ▶", gutterWidth))
            } else if slot % perHour == 0 {
                gutter = fit(String(format: "%02d:%02d", slot * slotMinutes / 60, slot * slotMinutes % 60), gutterWidth)
            } else {
                gutter = String(repeating: " ", count: gutterWidth)
            }
            let cells = columns.map { $0.cell(slot: slot, times: times, paint: paint) }
            lines.append(gutter + "│" + cells.joined(separator: "│"))
        }
        return lines
    }

    /// "Mon 7", "pon. 7", "po 7", or "*Mon 7" for today.
    static func shortLabel(_ day: LocalDate, times: Timestamps, today: Bool) -> String {
        (today ? "*" : "") + "\(times.weekday(day.start(in: times.zone))) \(day.day)"
    }

    /// Cuts (with "…" when there is room for more than the block's mark) or pads `text` to exactly `width` characters.
    static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if text.count > width { return width <= 2 ? String(text.prefix(width)) : String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }

    /// Which half-hour row of its local day an instant falls in (rounded up for an end).
    static func slot(_ date: Date, zone: TimeZone, roundingUp: Bool = false) -> Int {
        let c = LocalTime.calendar(zone).dateComponents([.hour, .minute, .second], from: date)
        let minutes = c.hour! * 60 + c.minute!
        let partial = roundingUp && (minutes % slotMinutes != 0 || c.second! > 0)
        return minutes / slotMinutes + (partial ? 1 : 0)
    }

    /// A timed entry's place in one day's column.
    struct Block {
        var entry: Entry
        var first: Int
        var end: Int
        var lane = 0
        var lanes = 1
    }

    /// One day: its all-day entries, its blocks laid out in lanes, and the now-line if it is today.
    struct Column {
        let day: LocalDate
        let width: Int
        var allDay: [Entry] = []
        var blocks: [Block] = []
        var nowSlot: Int?
        var hidden = 0

        init(day: LocalDate, entries: [Entry], zone: TimeZone, now: Date, width: Int) {
            self.day = day
            self.width = width
            let dayStart = day.start(in: zone)
            let dayEnd = day.adding(days: 1).start(in: zone)
            if now >= dayStart, now < dayEnd { nowSlot = CalendarView.slot(now, zone: zone) }
            for entry in entries {
                let end = max(entry.end, entry.start)
                let touches = entry.start < dayEnd && (end > dayStart || (entry.start == dayStart))
                guard touches else { continue }
                if entry.allDay || (entry.start <= dayStart && end >= dayEnd) {
                    allDay.append(entry)
                    continue
                }
                let first = entry.start < dayStart ? 0 : CalendarView.slot(entry.start, zone: zone)
                let last = end >= dayEnd ? slotsPerDay : CalendarView.slot(end, zone: zone, roundingUp: true)
                blocks.append(Block(entry: entry, first: first, end: max(last, first + 1)))
            }
            allDay.sort { ($0.start, $0.title) < ($1.start, $1.title) }
            layOut()
        }

        /// Side by side: each block takes the leftmost lane free at its start; blocks that overlap,
        /// directly or through others, share the column's width by the most lanes any of them needed.
        mutating func layOut() {
            blocks.sort {
                ($0.first, -$0.end, $0.entry.title, $0.entry.start) < (
                    $1.first, -$1.end, $1.entry.title, $1.entry.start
                )
            }
            let maxLanes = max(1, (width + 1) / 2)
            var clusterStart = 0
            var clusterEnd = -1
            var laneEnds: [Int] = []
            func close(_ upTo: Int) {
                for i in clusterStart..<upTo { blocks[i].lanes = min(laneEnds.count, maxLanes) }
            }
            for i in blocks.indices {
                if blocks[i].first >= clusterEnd {
                    close(i)
                    clusterStart = i
                    laneEnds = []
                }
                if let lane = laneEnds.firstIndex(where: { $0 <= blocks[i].first }) {
                    blocks[i].lane = lane
                    laneEnds[lane] = blocks[i].end
                } else {
                    blocks[i].lane = laneEnds.count
                    laneEnds.append(blocks[i].end)
                }
                clusterEnd = max(clusterEnd, blocks[i].end)
            }
            close(blocks.count)
            hidden = blocks.filter { $0.lane >= maxLanes }.count
            blocks.removeAll { $0.lane >= maxLanes }
        }

        func cell(slot: Int, times: Timestamps, paint: Paint) -> String {
            let here = blocks.filter { $0.first <= slot && slot < $0.end }
            let isNow = nowSlot == slot
            let free = isNow ? paint.now(String(repeating: "─", count: width)) : String(repeating: " ", count: width)
            guard let lanes = here.first?.lanes else { return free }
            let laneWidth = (width - (lanes - 1)) / lanes
            var parts: [String] = []
            for lane in 0..<lanes {
                let size = lane == lanes - 1 ? width - (lanes - 1) - laneWidth * (lanes - 1) : laneWidth
                if let block = here.first(where: { $0.lane == lane }) {
                    parts.append(
                        paint.block(fit(text(block, slot: slot, times: times), size), color: block.entry.color))
                } else {
                    parts.append(
                        isNow ? paint.now(String(repeating: "─", count: size)) : String(repeating: " ", count: size))
                }
            }
            return parts.joined(separator: isNow ? paint.now("─") : " ")
        }

        /// `┏ title`, `┃ 09:00–10:30`, `┃`, `┗`; a one-row block is `■ 09:00 title`.
        func text(_ block: Block, slot: Int, times: Timestamps) -> String {
            let rows = block.end - block.first
            let row = slot - block.first
            let start = times.clock(block.entry.start)
            if rows == 1 { return "■ \(start) \(block.entry.title)" }
            let mark = row == 0 ? "┏" : (row == rows - 1 ? "┗" : "┃")
            switch row {
            case 0: return "\(mark) \(block.entry.title)"
            case 1: return "\(mark) \(start)–\(times.clock(block.entry.end))"
            default: return mark
            }
        }
    }

    /// ANSI SGR colours, or nothing at all.
    struct Paint {
        let enabled: Bool

        func block(_ text: String, color: String?) -> String {
            guard enabled else { return text }
            return "\u{1B}[\(Self.sgr(color))m\(text)\u{1B}[0m"
        }

        func now(_ text: String) -> String { enabled ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
        func today(_ text: String) -> String { enabled ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text }

        /// Background and a readable foreground for an appointment's colour.
        static func sgr(_ color: String?) -> String {
            guard let color = color?.lowercased() else { return "7" }
            if color.hasPrefix("#"), color.count == 7, let rgb = Int(color.dropFirst(), radix: 16) {
                let (r, g, b) = (rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF)
                let light = 299 * r + 587 * g + 114 * b > 150_000
                return "48;2;\(r);\(g);\(b);\(light ? 30 : 97)"
            }
            switch TerminalColor(rawValue: color) {
            case .red: return "41;97"
            case .orange: return "48;5;208;30"
            case .yellow: return "43;30"
            case .green: return "42;30"
            case .teal: return "46;30"
            case .blue: return "44;97"
            case .purple: return "45;97"
            case .magenta: return "48;5;201;97"
            case .pink: return "48;5;211;30"
            case .brown: return "48;5;130;97"
            case .gray: return "100;97"
            case nil: return "7"
            }
        }
    }
}
