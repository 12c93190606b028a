import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// Turns what a user typed into values, or a usage error (exit 2) naming the option.
enum Input {
    /// Whose forms win where two languages read typed input differently.
    static let language = InputLanguage.of(environment: ProcessInfo.processInfo.environment)

    static func time(_ text: String, option: String, now: Date = Date(), zone: TimeZone = .current, past: Bool = false)
        throws -> Date
    {
        try wrap(option) {
            try TimeExpression.parse(text, now: now, zone: zone, field: option, past: past, language: language)
        }
    }

    static func duration(_ text: String, option: String) throws -> Int {
        try wrap(option) { try DurationParser.seconds(text, field: option) }
    }

    static func money(_ text: String, option: String) throws -> Money {
        // The currency placeholder is replaced by the daemon's configured default when none is typed.
        try wrap(option) {
            try MoneyParser.parse(text, defaultCurrency: "", field: option, language: Output.l.language)
        }
    }

    static func name(_ text: String, option: String) throws -> String {
        try wrap(option) { try Validation.name(text, field: option) }
    }

    /// What such an argument is, for its messages (each language names it in its own case and gender,
    /// and an amount of money and one of water with different words).
    enum SingleValue {
        case amount, water, count, goal

        func missing(example: String) -> String {
            switch self {
            case .amount: Output.l.tr("missing amount (e.g. %s)", example)
            case .water: Output.l.trc("water", "missing amount (e.g. %s)", example)
            case .count: Output.l.tr("missing count (e.g. %s)", example)
            case .goal: Output.l.tr("missing goal (e.g. %s)", example)
            }
        }

        func several(_ got: String) -> String {
            switch self {
            case .amount: Output.l.tr("one amount at a time, got: %s", got)
            case .water: Output.l.trc("water", "one amount at a time, got: %s", got)
            case .count: Output.l.tr("one count at a time, got: %s", got)
            case .goal: Output.l.tr("one goal at a time, got: %s", got)
            }
        }
    }

    /// The one value a number-like argument must have. Such arguments collect what ArgumentParser leaves
    /// unrecognised, because it takes a lone "-20" for an option and then reports the argument missing.
    static func single(_ values: [String], what: SingleValue, example: String) throws -> String {
        // Whatever follows "--" is a value, whatever it looks like.
        let terminator = values.firstIndex(of: "--") ?? values.endIndex
        if let option = values[..<terminator].first(where: {
            $0.hasPrefix("-") && !($0.dropFirst().first?.isNumber ?? false)
        }) {
            throw CLIFailure(.usage, Output.l.tr("unknown option '%s' (see --help)", option))
        }
        var values = values
        if terminator < values.endIndex { values.remove(at: terminator) }
        guard let first = values.first else { throw CLIFailure(.usage, what.missing(example: example)) }
        guard values.count == 1 else { throw CLIFailure(.usage, what.several(values.joined(separator: " "))) }
        return first
    }

    /// Runs a core check early so a typo costs no round trip and exits 2.
    static func check<T>(_ option: String, _ body: () throws -> T) throws -> T {
        try wrap(option, body)
    }

    private static func wrap<T>(_ option: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BeautyCore.ValidationError {
            let same =
                error.field == option || "--" + error.field == option
                || error.field.hasPrefix(option.dropFirst(2) + ":")
            // An empty option checks several options at once: the error's field names the option.
            let named = error.field.hasPrefix("-") ? error.field : "--\(error.field)"
            let field = option.isEmpty ? named : (same ? option : "\(option) (\(error.field))")
            // An option stays as typed (--at); a field's code (title) is said in the user's language.
            let shown = field.hasPrefix("-") ? field : ErrorFieldName.text(field).rendered(Output.l)
            throw CLIFailure(.usage, "\(shown): \(error.text(Output.l))")
        }
    }

    /// Asks on a terminal; without one, refuses unless `--yes` was given (nothing is lost by accident).
    static func confirm(_ question: String, yes: Bool) throws -> Bool {
        if yes { return true }
        guard isatty(STDIN_FILENO) == 1 else {
            // "Delete appointment 3 'Haircut'?" -> "add --yes to delete appointment 3 'Haircut'" (names keep their case).
            let action =
                question.prefix(1).lowercased()
                + question.dropFirst().trimmingCharacters(in: CharacterSet(charactersIn: "?"))
            throw CLIFailure(.usage, Output.l.tr("not asking on a non-terminal: add --yes to %s", action))
        }
        Output.writeError(Data("\(question) \(YesNo.prompt(Output.l)) ".utf8))
        return YesNo.isYes(readLine() ?? "", Output.l)
    }

    /// The flow every `rm` shares: unless `--yes`, ask on a terminal (`question` fetches what it names),
    /// then remove. Nil when the user kept it.
    static func confirmedRemoval<Gone>(
        of kind: String, id: Int64, yes: Bool, client: inout any RPCCalling, remove: RPC<IDParams, Gone>,
        question: (inout any RPCCalling) throws -> String
    ) throws -> Gone? {
        if !yes, try !confirm(question(&client), yes: false) {
            Output.line(Output.l.tr("Kept %s %s.", kind, id))
            return nil
        }
        return try client.call(remove, IDParams(id: id))
    }
}
