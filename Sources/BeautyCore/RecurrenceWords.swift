import BeautyLocalization
import Foundation

extension RecurrenceRule {
    /// The rule in words, plural-aware: "every week on Friday", "co tydzień w piątek", "každých 6
    /// týždňov", with its COUNT or UNTIL. A WEEKLY rule without BYDAY repeats on `start`'s weekday.
    /// Nil for a rule with parts this does not say (BYMONTHDAY, ordinal weekdays, BYSETPOS, ...):
    /// it is shown as its RRULE text.
    public func words(_ l: Localizer, start: Date? = nil, times: Timestamps) -> String? {
        guard bySecond.isEmpty, byMinute.isEmpty, byHour.isEmpty, byMonthDay.isEmpty, byYearDay.isEmpty,
            byWeekNo.isEmpty, byMonth.isEmpty, bySetPos.isEmpty, byDay.allSatisfy({ $0.ordinal == nil }),
            byDay.isEmpty || [.daily, .weekly].contains(frequency),
            var text = period(l)
        else { return nil }
        var days = byDay.map(\.weekday)
        if days.isEmpty, frequency == .weekly, let start {
            days = [Weekday.allCases[LocalTime.calendar(times.zone).component(.weekday, from: start) - 1]]
        }
        if !days.isEmpty {
            let names = days.sorted { ($0.number + 5) % 7 < ($1.number + 5) % 7 }.map { Self.onWeekday($0, l) }
            text +=
                " "
                + (names.count == 1
                    ? names[0] : l.tr("%s and %s", names.dropLast().joined(separator: ", "), names.last!))
        }
        if let count { text += l.trn(", %s time in all", ", %s times in all", count) }
        if let until {
            let shown =
                untilIsFloating ? Timestamps(zone: TimeZone(identifier: "UTC")!, language: times.language) : times
            text += l.tr(", until %s", untilIsDate ? shown.day(until) : shown.short(until))
        }
        return text
    }

    private func period(_ l: Localizer) -> String? {
        let n = interval
        switch frequency {
        case .minutely: return DurationParser.every(n * 60, l)
        case .hourly: return DurationParser.every(n * 3600, l)
        case .daily: return DurationParser.every(n * 86_400, l)
        case .weekly: return DurationParser.every(n * 604_800, l)
        case .monthly: return n == 1 ? l.tr("every month") : l.trn("every %s month", "every %s months", n)
        case .yearly: return n == 1 ? l.tr("every year") : l.trn("every %s year", "every %s years", n)
        case .secondly: return nil
        }
    }

    static func onWeekday(_ day: Weekday, _ l: Localizer) -> String {
        switch day {
        case .mon: l.tr("on Monday")
        case .tue: l.tr("on Tuesday")
        case .wed: l.tr("on Wednesday")
        case .thu: l.tr("on Thursday")
        case .fri: l.tr("on Friday")
        case .sat: l.tr("on Saturday")
        case .sun: l.tr("on Sunday")
        }
    }
}

extension DurationParser {
    /// "every 2 hours", "co 2 godziny", "každé 2 hodiny", "každých 6 týždňov": a whole number of one
    /// unit (weeks, days, hours, minutes) in words, plural-aware; any other length as "every 1h30m".
    public static func every(_ seconds: Int, _ l: Localizer) -> String {
        switch seconds {
        case let s where s > 0 && s % 604_800 == 0:
            s == 604_800 ? l.tr("every week") : l.trn("every %s week", "every %s weeks", s / 604_800)
        case let s where s > 0 && s % 86_400 == 0:
            s == 86_400 ? l.tr("every day") : l.trn("every %s day", "every %s days", s / 86_400)
        case let s where s > 0 && s % 3600 == 0:
            s == 3600 ? l.tr("every hour") : l.trn("every %s hour", "every %s hours", s / 3600)
        case let s where s > 0 && s % 60 == 0:
            s == 60 ? l.tr("every minute") : l.trn("every %s minute", "every %s minutes", s / 60)
        default:
            l.tr("every %s", format(seconds, l))
        }
    }
}
