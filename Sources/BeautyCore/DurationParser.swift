import BeautyLocalization
import Foundation

/// Durations as people type them: `90s`, `10m`, `2h`, `1d`, `6w`, and sums such as `1h30m`.
public enum DurationParser {
    static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    public static func seconds(_ text: String, field: String = "duration") throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { throw ValidationError(field: field, template: "must not be empty") }
        var total = 0
        var number = ""
        var sawUnit = false
        for character in trimmed where character != " " {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if let unit = units[character] {
                guard let value = Int(number) else {
                    throw ValidationError(
                        field: field, template: "'%s' is not a duration (a number must come before '%s')", text,
                        character)
                }
                let (product, overflow1) = value.multipliedReportingOverflow(by: unit)
                let (sum, overflow2) = total.addingReportingOverflow(product)
                guard !overflow1, !overflow2, sum <= 100 * 366 * 86_400 else {
                    throw ValidationError(field: field, template: "'%s' is too long", text)
                }
                total = sum
                number = ""
                sawUnit = true
            } else {
                throw ValidationError(
                    field: field,
                    template: "'%s' is not a duration (use a number with s, m, h, d or w, e.g. 90m or 1h30m)", text)
            }
        }
        guard number.isEmpty, sawUnit else {
            throw ValidationError(field: field, template: "'%s' needs a unit: s, m, h, d or w (e.g. %sm)", text, text)
        }
        return total
    }

    /// The shortest exact spelling: 5400 -> "1h30m", 86400 -> "1d".
    /// "1h30m" in English (as typed); "1 godz. 30 min", "1 h 30 min" with the language's unit
    /// abbreviations (no plural forms needed), for reading only.
    public static func format(_ seconds: Int, _ l: Localizer) -> String {
        guard l.language != .english else { return format(seconds) }
        if seconds == 0 { return "0 " + l.trc("duration unit", "m") }
        let units = [
            (l.trc("duration unit", "w"), 604_800), (l.trc("duration unit", "d"), 86_400),
            (l.trc("duration unit", "h"), 3600),
            (l.trc("duration unit", "m"), 60), (l.trc("duration unit", "s"), 1),
        ]
        var rest = seconds
        var parts: [String] = []
        for (unit, size) in units where rest >= size {
            parts.append("\(rest / size) \(unit)")
            rest %= size
        }
        return parts.joined(separator: " ")
    }

    public static func format(_ seconds: Int) -> String {
        if seconds == 0 { return "0m" }
        var rest = seconds
        var out = ""
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            out += "\(rest / size)\(unit)"
            rest %= size
        }
        return out
    }
}
