@testable import BeautyCore
import BeautyLocalization
import BeautyTestSupport
import Foundation
import Testing

@Suite("An RRULE said in words, plural-aware, in English, Polish and Slovak")
struct RecurrenceWordsTests {
    /// Friday 4 December 2026, 14:00 in Warsaw.
    let friday = instant("2026-12-04 14:00")

    func words(_ rule: String, _ language: Language) throws -> String? {
        try RecurrenceRule.parse(rule).words(
            .forLanguage(language), start: friday, times: Timestamps(zone: warsaw, language: language))
    }

    @Test("FREQ=WEEKLY on a Friday: every week on Friday, co tydzień w piątek, každý týždeň v piatok")
    func weeklyOnTheStartsWeekday() throws {
        #expect(try words("FREQ=WEEKLY", .english) == "every week on Friday")
        #expect(try words("FREQ=WEEKLY", .polish) == "co tydzień w piątek")
        #expect(try words("FREQ=WEEKLY", .slovak) == "každý týždeň v piatok")
    }

    @Test("intervals take each language's plural: 2 and 6 weeks, 22 days, 5 years")
    func plurals() throws {
        #expect(try words("FREQ=WEEKLY;INTERVAL=6", .slovak) == "každých 6 týždňov v piatok")
        #expect(try words("FREQ=WEEKLY;INTERVAL=2", .slovak) == "každé 2 týždne v piatok")
        #expect(try words("FREQ=WEEKLY;INTERVAL=6", .english) == "every 6 weeks on Friday")
        #expect(try words("FREQ=WEEKLY;INTERVAL=2", .polish) == "co 2 tygodnie w piątek")
        #expect(try words("FREQ=DAILY;INTERVAL=22", .polish) == "co 22 dni")
        #expect(try words("FREQ=DAILY;INTERVAL=21", .polish) == "co 3 tygodnie", "whole weeks are said as weeks")
        #expect(try words("FREQ=HOURLY;INTERVAL=2", .slovak) == "každé 2 hodiny")
        #expect(try words("FREQ=YEARLY;INTERVAL=5", .polish) == "co 5 lat")
        #expect(try words("FREQ=MONTHLY", .slovak) == "každý mesiac")
    }

    @Test("weekdays, COUNT and UNTIL")
    func daysCountUntil() throws {
        #expect(
            try words("FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10", .english)
                == "every week on Monday, on Wednesday and on Friday, 10 times in all")
        #expect(
            try words("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3", .polish) == "co tydzień we wtorek i w czwartek, łącznie 3 razy"
        )
        #expect(try words("FREQ=DAILY;UNTIL=20261231", .slovak) == "každý deň, do št 31.12.2026")
    }

    @Test("parts it does not say (BYMONTHDAY, ordinal weekdays, BYSETPOS, SECONDLY) fall back to the rule's text")
    func exoticRulesHaveNoWords() throws {
        #expect(try words("FREQ=MONTHLY;BYDAY=-1FR", .english) == nil)
        #expect(try words("FREQ=MONTHLY;BYMONTHDAY=15", .polish) == nil)
        #expect(try words("FREQ=SECONDLY", .slovak) == nil)
    }
}
