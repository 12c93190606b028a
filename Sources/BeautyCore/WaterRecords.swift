import Foundation
import BeautyLocalization

/// One drink: whole millilitres over [start, end]. `uuid` identifies it for ever, so importing the
/// same export twice adds nothing (health apps' water samples carry one each).
public struct WaterRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var uuid: String
    public var amountMl: Int
    public var start: Date
    public var end: Date?

    public init(id: Int64? = nil, uuid: String, amountMl: Int, start: Date, end: Date? = nil) {
        self.id = id
        self.uuid = uuid
        self.amountMl = amountMl
        self.start = start
        self.end = end
    }
}

/// Amounts of water as typed: `250`, `250,5` or `250.5` (rounded half up to whole ml: 251),
/// optionally with a unit: `250 ml`, `0,5 l`, `1.5l`.
public enum WaterAmount {
    /// The most one record may hold.
    public static let maxMl = 10_000
    /// The largest daily goal accepted.
    public static let maxGoalMl = 20_000

    /// `inMillilitres`: a bare number is millilitres (a file's `amount_ml`), never asked about.
    public static func parse(
        _ text: String, field: String = "amount", maximum: Int = maxMl, inMillilitres: Bool = false
    ) throws -> Int {
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !number.isEmpty else {
            throw ValidationError(field: field, template: "must not be empty (millilitres, e.g. 250, 250,5 or 0.5 l)")
        }
        var scale = 1
        if number.hasSuffix("ml") {
            number.removeLast(2)
        } else if number.hasSuffix("l") {
            number.removeLast()
            scale = 1000
        }
        number = number.trimmingCharacters(in: .whitespaces)
        if number.hasPrefix("-") {
            throw ValidationError(field: field, template: "'%s' is negative: an amount must be more than 0", text)
        }
        if !inMillilitres, scale == 1, number == text.trimmingCharacters(in: .whitespaces).lowercased() {
            try refuseAmbiguousDecimal(number, text: text, field: field, maximum: maximum)
        }
        let pieces = number.split(separator: number.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !(number.contains(",") && number.contains(".")), (1...2).contains(pieces.count), digits(pieces[0]),
            pieces.count == 1 || digits(pieces[1])
        else {
            throw ValidationError(
                field: field, template: "'%s' is not an amount of water (e.g. 250, 250,5 or 0.5 l)", text)
        }
        // Exact decimal arithmetic: "250,5" is 2505 tenths; half a millilitre or more rounds up.
        let whole = pieces[0].drop { $0 == "0" }
        let fraction = pieces.count == 2 ? pieces[1].prefix(6) : ""
        guard whole.count <= 6, let units = Int(whole.isEmpty ? "0" : String(whole)) else {
            throw ValidationError(field: field, template: "'%s' is too large (at most %s ml at a time)", text, maxMl)
        }
        var power = 1
        for _ in fraction { power *= 10 }
        let scaled = (units * power + (Int(fraction) ?? 0)) * scale
        return try checked((scaled + power / 2) / power, text: text, field: field, maximum: maximum)
    }

    /// A bare number with a decimal comma or point that would also be a possible amount in litres
    /// (`2,5`: 2,5 l or 3 ml?) is refused naming both; one too large for litres (`250,5`) is millilitres.
    private static func refuseAmbiguousDecimal(_ number: String, text: String, field: String, maximum: Int) throws {
        let separator: Character = number.contains(",") ? "," : "."
        let pieces = number.split(separator: separator, omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[1].isEmpty,
            pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let litres = Double(number.replacingOccurrences(of: ",", with: ".")),
            litres * 1000 <= Double(min(maximum, maxGoalMl))
        else { return }
        guard let ml = try? parse(number + "ml", field: field, maximum: .max) else {
            // Less than a whole millilitre: only litres make sense, but the unit is still the user's to say.
            throw ValidationError(
                field: field, template: "'%s' could only be %s l (%s ml): write '%s l'",
                text, number, Int((litres * 1000).rounded()), number)
        }
        throw ValidationError(
            field: field, template: "'%s' could be %s l or %s ml: write the unit, e.g. '%s l' or '%s ml'",
            text, number, number, number, ml)
    }

    /// A number from a file or a request, rounded half up to whole millilitres.
    public static func rounded(_ value: Double, field: String = "amount") throws -> Int {
        guard value.isFinite else { throw ValidationError(field: field, template: "must be a number") }
        guard value >= 0 else {
            throw ValidationError(field: field, template: "%s is negative: an amount must be more than 0", value)
        }
        guard value < Double(maxMl) + 1 else { return try checked(maxMl + 1, text: "\(value)", field: field) }
        return try checked(Int(value.rounded(.toNearestOrAwayFromZero)), text: "\(value)", field: field)
    }

    /// Whole millilitres within 1 ... `maximum`.
    public static func checked(_ ml: Int, text: String? = nil, field: String = "amount", maximum: Int = maxMl) throws
        -> Int
    {
        let shown = text.map { "'\($0)'" } ?? "\(ml) ml"
        guard ml >= 1 else {
            throw ValidationError(field: field, template: "%s is less than 1 ml: an amount must be more than 0", shown)
        }
        guard ml <= maximum else {
            throw ValidationError(field: field, template: "%s is more than %s ml at a time", shown, maximum)
        }
        return ml
    }

    /// A daily goal as typed ("2000", "2 l", "1,5l").
    public static func goal(parsing text: String, field: String = "goal") throws -> Int {
        try goal(try parse(text, field: field, maximum: .max), field: field)
    }

    /// A daily goal: 1 ... `maxGoalMl` whole millilitres.
    public static func goal(_ ml: Int, field: String = "goalMl") throws -> Int {
        guard ml >= 1, ml <= maxGoalMl else {
            throw ValidationError(field: field, template: "must be between 1 and %s ml", maxGoalMl)
        }
        return ml
    }
}

extension Validation {
    /// The longest record identifier accepted.
    public static let maxWaterUUIDLength = 100

    /// A UUID in its canonical upper-case form (so `4f2a…` and `4F2A…` are one record); any other
    /// identifier of 1–100 printable characters without spaces (nor bidirectional controls) is kept as it is.
    public static func waterUUID(_ raw: String, field: String = "uuid") throws -> String {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw ValidationError(field: field, template: "must not be empty") }
        if let uuid = UUID(uuidString: text) { return uuid.uuidString }
        guard text.count <= maxWaterUUIDLength,
            text.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) && !$0.properties.isBidiControl
            })
        else {
            throw ValidationError(
                field: field, template: "'%s' is not an identifier (1–%s printable characters, no spaces)",
                quotable(raw), maxWaterUUIDLength)
        }
        return text
    }

    /// Checks a record: an identifier, 1 ... `WaterAmount.maxMl` ml, an end not before its start.
    public static func waterRecord(_ input: WaterRecord) throws -> WaterRecord {
        var record = input
        record.uuid = try waterUUID(record.uuid)
        record.amountMl = try WaterAmount.checked(record.amountMl, field: "amountMl")
        if let end = record.end, end < record.start {
            throw ValidationError(field: "end", template: "must not be before the start")
        }
        return record
    }
}

/// Hydration reminders: every `everySeconds` of elapsed time from the window's start up to and
/// including its end, each day. An end before the start crosses midnight (`22:00-06:00`) and the
/// reminders belong to the day the window starts on; one day's span less than 24 hours.
public struct WaterReminder: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var everySeconds: Int
    public var windowStart: ClockTime
    public var windowEnd: ClockTime

    public init(enabled: Bool, everySeconds: Int, windowStart: ClockTime, windowEnd: ClockTime) {
        self.enabled = enabled
        self.everySeconds = everySeconds
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }

    /// Every 2 hours from 09:00 to 21:00, switched off.
    public static let standard = WaterReminder(
        enabled: false, everySeconds: 7200, windowStart: ClockTime(hour: 9, minute: 0),
        windowEnd: ClockTime(hour: 21, minute: 0))

    /// 1 minute ... 24 hours apart, in a window whose start and end differ.
    public func validated() throws -> WaterReminder {
        guard everySeconds >= 60 else { throw ValidationError(field: "every", template: "must be at least 1 minute") }
        guard everySeconds <= 86_400 else {
            throw ValidationError(field: "every", template: "must be at most 24 hours")
        }
        guard windowStart != windowEnd else {
            throw ValidationError(
                field: "between", template: "%s-%s is empty: the start and end must differ", windowStart, windowEnd)
        }
        return self
    }

    /// The reminders belonging to `day` (whether or not switched on), earliest first.
    public func instants(on day: LocalDate, zone: TimeZone) -> [Date] {
        let endDay = windowEnd <= windowStart ? day.adding(days: 1) : day
        guard everySeconds > 0,
            let first = LocalTime.instant(
                year: day.year, month: day.month, day: day.day,
                hour: windowStart.hour, minute: windowStart.minute, in: zone),
            let last = LocalTime.instant(
                year: endDay.year, month: endDay.month, day: endDay.day,
                hour: windowEnd.hour, minute: windowEnd.minute, in: zone)
        else { return [] }
        let count = min(Int(last.timeIntervalSince(first)) / everySeconds, (86_400 - 1) / everySeconds)
        return count < 0 ? [] : (0...count).map { first.addingTimeInterval(TimeInterval($0 * everySeconds)) }
    }

    /// The reminders in [from, to) with the day each belongs to, earliest first.
    public func reminders(from: Date, to: Date, zone: TimeZone) -> [(day: LocalDate, at: Date)] {
        guard from < to else { return [] }
        var result: [(day: LocalDate, at: Date)] = []
        var day = LocalDate(from, in: zone).adding(days: -1)  // its window may cross midnight into the range
        let last = LocalDate(to, in: zone)
        while day <= last {
            result += instants(on: day, zone: zone).filter { $0 >= from && $0 < to }.map { (day: day, at: $0) }
            day = day.adding(days: 1)
        }
        return result.sorted { $0.at < $1.at }
    }
}

/// Why a file cannot be imported: every bad line found (up to `WaterImport.maxProblems`).
public struct WaterImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [LineError]
    /// Bad lines beyond the ones listed.
    public var more: Int

    public init(_ problems: [LineError], more: Int = 0) {
        self.problems = problems
        self.more = more
    }

    public var description: String {
        (problems.map(\.description) + (more > 0 ? ["and \(more) more bad line(s)"] : [])).joined(separator: "\n")
    }

    /// "FILE:LINE: problem" a line, in the language of `l`.
    public func located(in file: String, _ l: Localizer) -> [String] {
        problems.map { "\(file):\($0.line): \($0.message(l))" }
            + (more > 0 ? [l.trn("and %s more bad line", "and %s more bad lines", more)] : [])
    }
}

/// Reads water records exported elsewhere (all or nothing: one bad line and nothing is returned).
///
/// - CSV with a header naming the columns `uuid`, `amount_ml`, `start` and `end` (in any order;
///   `end` may be left out or empty; other columns are ignored). Fields may be quoted, which a
///   decimal comma needs: `"250,5"`.
/// - JSON: an array of objects `{"uuid", "amountMl" or "amount_ml", "start", "end"}`; amounts
///   may be numbers or strings.
///
/// Times are ISO 8601 (`2030-01-15T08:30:00+01:00`, `...Z`, Apple Health's
/// `2030-01-15 08:30:00 +0100`), or the day first as the original iOS app wrote them
/// (`15-01-2030 08:30:00`); without an offset they are local times in `zone`.
/// A uuid repeated with other values is an error; repeated with the same values it is one record.
public enum WaterImport {
    public static let maxProblems = 20

    public static func parse(_ text: String, zone: TimeZone) throws -> [WaterRecord] {
        var body = text
        if body.hasPrefix("\u{FEFF}") { body.removeFirst() }
        let first = body.first { !$0.isWhitespace }
        if first == "[" || first == "{" { return try parseJSON(body, zone: zone) }
        return try parseCSV(body, zone: zone)
    }

    /// An instant as a file writes it (see the type's notes).
    public static func instant(_ raw: String, zone: TimeZone, field: String) throws -> Date {
        var text = raw.trimmingCharacters(in: .whitespaces)
        // "25-11-2026 18:00:00": the day first, as the original iOS app (shared/seeds) exported it.
        if let dayFirst = text.range(of: #"^[0-9]{2}-[0-9]{2}-[0-9]{4}(?=[Tt ])"#, options: .regularExpression) {
            let parts = text[dayFirst].split(separator: "-")
            text.replaceSubrange(dayFirst, with: "\(parts[2])-\(parts[1])-\(parts[0])")
        }
        if let gap = text.range(of: #" [+-][0-9]{2}:?[0-9]{2}$"#, options: .regularExpression) {
            text.remove(at: gap.lowerBound)  // "08:30:00 +0100": the offset belongs to the time
        }
        guard
            text.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{1,2}:[0-9]{2}"#, options: .regularExpression) != nil
        else {
            if raw.isEmpty {
                throw ValidationError(field: field, template: "is missing (ISO 8601 such as 2030-01-15T08:30:00+01:00)")
            }
            throw ValidationError(
                field: field, template: "'%s' is not a date and time (ISO 8601 such as 2030-01-15T08:30:00+01:00)", raw)
        }
        // TimeExpression refuses impossible days and times (2030-02-30, 25:00) that Foundation would roll over.
        do {
            return try TimeExpression.parse(text, now: Date(timeIntervalSince1970: 0), zone: zone, field: field)
        } catch {
            throw ValidationError(
                field: field,
                TranslatableText(
                    "'%s' is not a valid date and time (%s)",
                    [
                        .plain(raw), .message(TranslatableText("ISO 8601 such as 2030-01-15T08:30:00+01:00", [])),
                    ]))
        }
    }

    // MARK: - Collecting problems

    /// Records with their lines, and the problems found so far.
    private struct Collector {
        var records: [WaterRecord] = []
        var problems: [LineError] = []
        var lineOf: [String: (line: Int, record: WaterRecord)] = [:]

        mutating func add(line: Int, _ body: () throws -> WaterRecord) {
            do {
                let record = try Validation.waterRecord(try body())
                if let earlier = lineOf[record.uuid] {
                    if earlier.record != record {
                        problems.append(
                            LineError(
                                line: line, template: "uuid %s is also on line %s, with another amount or time",
                                record.uuid, earlier.line))
                    }
                    return
                }
                lineOf[record.uuid] = (line, record)
                records.append(record)
            } catch let error as ValidationError {
                problems.append(LineError(line: line, error.field == "line" ? error.messageText : error.textWithField))
            } catch {
                problems.append(LineError(line: line, .verbatim("\(error)")))
            }
        }

        func result() throws -> [WaterRecord] {
            guard problems.isEmpty else {
                throw WaterImportError(Array(problems.prefix(maxProblems)), more: max(0, problems.count - maxProblems))
            }
            return records
        }
    }

    // MARK: - CSV

    static let columns = ["uuid", "amount_ml", "start", "end"]

    private static func parseCSV(_ text: String, zone: TimeZone) throws -> [WaterRecord] {
        // "\r\n" is one Character in Swift: every line ending is a separator of its own.
        let lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        )
        .map(String.init)
        guard let headerIndex = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw WaterImportError([
                LineError(
                    line: 1, template: "the file is empty: expected a CSV header %s or a JSON array",
                    columns.joined(separator: ","))
            ])
        }
        let header: [String]
        do {
            header = try fields(lines[headerIndex]).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        } catch let error as ValidationError {
            throw WaterImportError([LineError(line: headerIndex + 1, error.messageText)])
        }
        var index: [String: Int] = [:]
        for (position, name) in header.enumerated() {
            let column = name == "amountml" ? "amount_ml" : name
            guard columns.contains(column) else { continue }
            guard index[column] == nil else {
                throw WaterImportError([
                    LineError(line: headerIndex + 1, template: "the column %s is named twice", column)
                ])
            }
            index[column] = position
        }
        let missing = columns.dropLast().filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw WaterImportError([
                LineError(
                    line: headerIndex + 1, template: "the header must name the columns %s (missing: %s)",
                    columns.joined(separator: ","), missing.joined(separator: ", "))
            ])
        }
        var collector = Collector()
        for number in (headerIndex + 1)..<lines.count where !lines[number].trimmingCharacters(in: .whitespaces).isEmpty
        {
            collector.add(line: number + 1) {
                let values = try fields(lines[number])
                guard values.count == header.count else {
                    guard values.count < header.count else {
                        throw ValidationError(
                            field: "line",
                            template: "expected %s fields, found %s (a decimal comma needs quotes: \"250,5\")",
                            header.count, values.count)
                    }
                    throw ValidationError(
                        field: "line", template: "expected %s fields, found %s", header.count, values.count)
                }
                let end = index["end"].map { values[$0].trimmingCharacters(in: .whitespaces) } ?? ""
                return WaterRecord(
                    uuid: values[index["uuid"]!],
                    amountMl: try WaterAmount.parse(
                        values[index["amount_ml"]!], field: "amount_ml", inMillilitres: true),
                    start: try instant(values[index["start"]!], zone: zone, field: "start"),
                    end: end.isEmpty ? nil : try instant(end, zone: zone, field: "end"))
            }
        }
        return try collector.result()
    }

    /// The fields of one CSV line; `"..."` quotes a field (`""` is a quote inside it).
    public static func fields(_ line: String) throws -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    var lookahead = characters
                    if lookahead.next() == "\"" {
                        current.append("\"")
                        characters = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "," {
                result.append(current)
                current = ""
                wasQuoted = false
            } else if character == "\"", current.trimmingCharacters(in: .whitespaces).isEmpty, !wasQuoted {
                quoted = true
                wasQuoted = true
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw ValidationError(field: "line", template: "a quoted field is not closed") }
        result.append(current)
        return result
    }

    // MARK: - JSON

    private static func parseJSON(_ text: String, zone: TimeZone) throws -> [WaterRecord] {
        let data = Data(text.utf8)
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            let line = syntaxErrorLine(detail, in: data)
            throw WaterImportError([
                detail.map { LineError(line: line, template: "not valid JSON: %s", $0) }
                    ?? LineError(line: line, template: "not valid JSON")
            ])
        }
        guard let array = parsed as? [Any] else {
            throw WaterImportError([
                LineError(
                    line: 1, template: "expected a JSON array of {\"uuid\", \"amountMl\", \"start\", \"end\"} objects")
            ])
        }
        let lines = elementLines(data)
        var collector = Collector()
        for (position, element) in array.enumerated() {
            let line = position < lines.count ? lines[position] : 1
            collector.add(line: line) {
                guard let object = element as? [String: Any] else {
                    throw ValidationError(
                        field: "record \(position + 1)",
                        template: "expected an object with uuid, amountMl, start and end")
                }
                guard let uuid = object["uuid"] as? String else {
                    throw ValidationError(field: "uuid", template: "is missing (a string)")
                }
                let key = object["amountMl"] != nil ? "amountMl" : "amount_ml"
                let amount: Int
                switch object[key] {
                case let number as NSNumber where !isBoolean(number):
                    amount = try WaterAmount.rounded(number.doubleValue, field: key)
                case let string as String: amount = try WaterAmount.parse(string, field: key, inMillilitres: true)
                case nil, is NSNull: throw ValidationError(field: "amountMl", template: "is missing (millilitres)")
                default: throw ValidationError(field: key, template: "must be a number of millilitres")
                }
                guard let start = object["start"] as? String else {
                    throw ValidationError(field: "start", template: "is missing (an ISO 8601 time)")
                }
                var end: Date?
                switch object["end"] {
                case nil, is NSNull: end = nil
                case let string as String: end = string.isEmpty ? nil : try instant(string, zone: zone, field: "end")
                default: throw ValidationError(field: "end", template: "must be an ISO 8601 time")
                }
                return WaterRecord(
                    uuid: uuid, amountMl: amount, start: try instant(start, zone: zone, field: "start"), end: end)
            }
        }
        return try collector.result()
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"  // how JSONSerialization gives true and false
    }

    /// The line a JSONSerialization syntax error is on: it names a byte offset ("around character 18"),
    /// or the file ended too soon (its last line with text); 1 when it says neither.
    static func syntaxErrorLine(_ detail: String?, in data: Data) -> Int {
        func line(at offset: Int) -> Int {
            1 + data.prefix(offset).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        guard let detail else { return 1 }
        if let range = detail.range(of: #"character [0-9]+"#, options: .regularExpression),
            let offset = Int(detail[range].dropFirst("character ".count))
        {
            return line(at: min(offset, data.count))
        }
        if detail.range(of: "end of (file|data)", options: [.regularExpression, .caseInsensitive]) != nil {
            let last = data.lastIndex { !" \t\r\n".utf8.contains($0) }
            return line(at: last.map { data.distance(from: data.startIndex, to: $0) } ?? 0)
        }
        return 1
    }

    /// The line each element of the top-level array starts on (the file is valid JSON).
    static func elementLines(_ data: Data) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        var awaiting = false
        for byte in data {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let blank = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if depth == 1, awaiting, !blank, byte != UInt8(ascii: "]") {
                lines.append(line)
                awaiting = false
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { awaiting = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { awaiting = true }
            default: break
            }
        }
        return lines
    }
}
