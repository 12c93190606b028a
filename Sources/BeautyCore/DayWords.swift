import BeautyLocalization
import Foundation

/// A day as a word names it: relative to today, or a weekday.
public enum DayWord: Equatable, Sendable {
    /// Days after today: 0 today, 1 tomorrow, 2 the day after; -1 yesterday, -2 the day before.
    case relative(Int)
    /// 1 = Sunday ... 7 = Saturday, as Foundation's Calendar counts.
    case weekday(Int)
}

/// The words for days in English, Polish and Slovak: `today`, `jutro`, `pozajtra`, `fri`, `pt`, `piatok`...
/// Typed in any case, with or without diacritics, full names also shortened to three letters or more.
///
/// One spelling could mean two things: Slovak `st` (streda, Wednesday) and `št` (štvrtok, Thursday)
/// are one word without diacritics, so the spelling as typed decides first (`st` is Wednesday, the
/// Thursday without diacritics is `stv`); Slovak `po` (Monday) is "after" in Polish, so a Polish user's
/// `po` is refused. Where languages disagree the user's language decides; no other spelling collides.
public enum DayWords {
    struct Entry {
        let spelling: String
        let meaning: DayWord
        let language: InputLanguage
        /// A full name, which may be shortened.
        let full: Bool
    }

    static let entries: [Entry] = {
        var entries: [Entry] = []
        func add(_ language: InputLanguage, _ meaning: DayWord, full: [String], short: [String]) {
            entries += full.map { Entry(spelling: $0, meaning: meaning, language: language, full: true) }
            entries += short.map { Entry(spelling: $0, meaning: meaning, language: language, full: false) }
        }
        add(.english, .relative(0), full: [], short: ["today"])
        add(.english, .relative(1), full: [], short: ["tomorrow"])
        add(.english, .relative(-1), full: [], short: ["yesterday"])
        add(.english, .relative(-2), full: [], short: [dayBeforeYesterday])
        add(.polish, .relative(-1), full: [], short: ["wczoraj"])
        add(.polish, .relative(-2), full: [], short: ["przedwczoraj"])
        add(.slovak, .relative(-1), full: [], short: ["včera"])
        add(.slovak, .relative(-2), full: [], short: ["predvčerom"])
        add(.polish, .relative(0), full: [], short: ["dziś", "dzisiaj"])
        add(.polish, .relative(1), full: [], short: ["jutro"])
        add(.polish, .relative(2), full: [], short: ["pojutrze"])
        add(.slovak, .relative(0), full: [], short: ["dnes"])
        add(.slovak, .relative(1), full: [], short: ["zajtra"])
        add(.slovak, .relative(2), full: [], short: ["pozajtra"])
        let english = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        let polish = ["niedziela", "poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"]
        let slovak = ["nedeľa", "pondelok", "utorok", "streda", "štvrtok", "piatok", "sobota"]
        for day in 0..<7 {
            add(.english, .weekday(day + 1), full: [english[day]], short: [String(english[day].prefix(3))])
            add(.polish, .weekday(day + 1), full: [polish[day]], short: polishShort[day])
            add(.slovak, .weekday(day + 1), full: [slovak[day]], short: slovakShort[day])
        }
        return entries
    }()

    /// English names this day in three words; `joiningPhrases` makes them one before words are split.
    static let dayBeforeYesterday = "day-before-yesterday"

    /// `text` (lowercased) with "the day before yesterday" written as the one word the entries know.
    public static func joiningPhrases(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"(the )?day before yesterday"#, with: dayBeforeYesterday, options: .regularExpression)
    }

    /// The word for yesterday in `language`, for suggestions.
    public static func yesterday(_ language: InputLanguage) -> String {
        entries.first { $0.language == language && $0.meaning == .relative(-1) }?.spelling ?? "yesterday"
    }

    static let polishShort = [["nd", "ndz"], ["pon", "pn"], ["wt"], ["śr"], ["czw", "cz"], ["pt"], ["sob", "sb"]]
    static let slovakShort = [["ne"], ["po"], ["ut"], ["st"], ["št"], ["pi"], ["so"]]

    /// The weekday `number` (1 = Sunday) as `--days` takes it in `language`: "fri", "pt", "pi".
    public static func abbreviation(_ number: Int, language: Language) -> String {
        switch language {
        case .english: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][number - 1]
        case .polish: polishShort[number - 1][0]
        case .slovak: slovakShort[number - 1][0]
        }
    }

    /// Words of one language that another language uses for a day: the user's language reads them its
    /// way. (The refusal's text names what the word means there: one template per word.)
    static let otherMeanings: [(spelling: String, language: InputLanguage)] = [
        ("po", .polish)  // "after"
    ]

    /// What `word` names, nil when it is not a day word. Throws when it names a day only in a language
    /// other than the user's, where it means something else.
    public static func parse(_ word: String, language: InputLanguage, field: String) throws -> DayWord? {
        let lower = word.lowercased(), folded = TextFolding.fold(word)
        if let other = otherMeanings.first(where: { $0.language == language && TextFolding.fold($0.spelling) == folded }
        ) {
            let l = Localizer.forLanguage(Language(rawValue: language.rawValue) ?? .english)
            let meaning = meanings(lower: lower, folded: folded).first
            // The days in the language of the input for translations; in English for the English message.
            var error = ValidationError(
                field: field, template: "'%s' is \"after\" in Polish, not %s (for %s write %s)",
                word, meaning.map { describe($0, language: language) } ?? l.tr("a day"),
                otherDay(other.spelling, language: language), unambiguous(for: other.spelling))
            error.message = Localizer.english.trArray(
                error.template!,
                [
                    word, meaning.map(describe) ?? "a day", otherDay(other.spelling, language: .english),
                    unambiguous(for: other.spelling),
                ])
            throw error
        }
        let found = meanings(lower: lower, folded: folded)
        guard found.count <= 1 else {
            let days = found.map { describe($0, language: language) }, englishDays = found.map(describe)
            var error: ValidationError
            switch days.count {
            case 2:
                error = ValidationError(
                    field: field, template: "'%s' could be %s or %s: write more of the name", word, days[0], days[1])
            case 3:
                error = ValidationError(
                    field: field, template: "'%s' could be %s or %s or %s: write more of the name", word, days[0],
                    days[1], days[2])
            default:
                error = ValidationError(
                    field: field, template: "'%s' could be any of %s: write more of the name", word,
                    days.joined(separator: ", "))
            }
            // The days in the language of the input for translations; in English for the English message.
            error.message = "'\(word)' could be \(englishDays.joined(separator: " or ")): write more of the name"
            throw error
        }
        return found.first
    }

    /// The distinct meanings of a word: by its spelling as typed; failing that without diacritics;
    /// failing that as the start (three letters or more) of a full name.
    static func meanings(lower: String, folded: String) -> [DayWord] {
        let exact = entries.filter { $0.spelling == lower }
        let plain = exact.isEmpty ? entries.filter { TextFolding.fold($0.spelling) == folded } : exact
        let start =
            plain.isEmpty && folded.count >= 3
            ? entries.filter { $0.full && TextFolding.fold($0.spelling).hasPrefix(folded) } : plain
        var meanings: [DayWord] = []
        for entry in start where !meanings.contains(entry.meaning) { meanings.append(entry.meaning) }
        return meanings
    }

    /// "Friday", "tomorrow": what was understood, for messages.
    public static func describe(_ day: DayWord) -> String {
        switch day {
        case .relative(0): "today"
        case .relative(1): "tomorrow"
        case .relative(-1): "yesterday"
        case .relative(-2): "the day before yesterday"
        case .relative(let n): "in \(n) days"
        case .weekday(let n): ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][n - 1]
        }
    }

    /// "Friday", "piątek", "piatok", "tomorrow", "jutro": a day as understood, in the messages' `language`.
    static func describe(_ day: DayWord, language: InputLanguage) -> String {
        guard let lang = Language(rawValue: language.rawValue), lang != .english else { return describe(day) }
        let l = Localizer.forLanguage(lang)
        switch day {
        case .relative(0): return l.tr("today")
        case .relative(1): return l.tr("tomorrow")
        case .relative(-1): return l.tr("yesterday")
        case .relative(-2): return l.tr("the day before yesterday")
        case .relative(let n): return l.trn("in %s day", "in %s days", n, n)
        case .weekday(let n):
            let formatter = DateFormatter()
            formatter.locale = lang.locale
            return formatter.standaloneWeekdaySymbols[n - 1]
        }
    }

    /// The day `spelling` names, in the messages' `language`: "Monday" for 'po'.
    static func otherDay(_ spelling: String, language: InputLanguage) -> String {
        entries.first(where: { $0.spelling == spelling }).map { describe($0.meaning, language: language) } ?? ""
    }

    /// The other spellings of the day `spelling` names, for an error's suggestion: "'pon', 'pondelok'".
    static func unambiguous(for spelling: String) -> String {
        guard let meaning = entries.first(where: { $0.spelling == spelling })?.meaning else { return "" }
        return entries.filter { $0.meaning == meaning && $0.spelling != spelling && !$0.full }.map {
            "'\($0.spelling)'"
        }
        .joined(separator: ", ")
    }

    /// The weekday spellings each language accepts, for help and error texts.
    public static let weekdayExamples = "mon…sun, pon wt śr czw pt sob nd, po ut st št pi so ne"
}
