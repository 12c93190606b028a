import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// `--socket`, accepted by every command that talks to the daemon.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr("The daemon's socket (default: $BEAUTYD_SOCKET, else $XDG_RUNTIME_DIR/beautyd/beautyd.sock)."),
            valueName: "path"))
    var socket: String?

    /// Who answers the commands instead of beautyd's socket while a command runs (a test's daemon in
    /// process); nil: the socket.
    @TaskLocal static var caller: (any RPCCalling)?

    var client: any RPCCalling {
        if let caller = Self.caller { return caller }
        let environment = ProcessInfo.processInfo.environment
        return DaemonClient(socketPath: socket ?? environment["BEAUTYD_SOCKET"] ?? SocketLocation.defaultPath())
    }
}

/// `--sort` and `--reverse` of the lists. The daemon sorts, so paging (`--limit`/`--offset`) comes after the sort.
struct SortOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Sort by title, time, category or price (those this list has); equal ones keep the list's order, ones without a value come last."
            ),
            valueName: "key"))
    var sort: String?

    @Flag(
        help: ArgumentHelp(Output.l.tr("Reverse the order: descending (--sort) or the list's own order turned round.")))
    var reverse = false

    func validate() throws {
        if let sort, ListSortKey(rawValue: sort.lowercased()) == nil {
            let keys = ListSortKey.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentParser.ValidationError(Output.l.tr("--sort: '%s' is not one of %s", sort, keys))
        }
    }

    /// The wire's `sort` and `reverse` (absent when not asked for).
    var wire: (sort: ListSortChoice?, reverse: Bool?) { (sort.map(ListSortChoice.init), reverse ? true : nil) }

    var params: ListOrderParams { ListOrderParams(sort: wire.sort, reverse: wire.reverse) }
}

/// `--json` or `--csv` for the record lists (CSV opens in a spreadsheet).
struct ListOutputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(Output.l.tr("Print machine-readable JSON instead of text.")))
    var json = false

    @Flag(
        help: ArgumentHelp(
            Output.l.tr("Print CSV instead of text: a header line, then one line per item (times in ISO 8601).")))
    var csv = false

    func validate() throws {
        if json, csv { throw ValidationError(Output.l.tr("--json and --csv: choose one")) }
    }

    /// Prints the list as JSON or as CSV when one was asked for; false when the text form is wanted.
    func printed<T: Encodable>(_ value: T, csv header: [String], _ rows: () -> [[String]]) throws -> Bool {
        if json { try Output.json(value) } else if csv { Output.csv(header, rows()) }
        return json || csv
    }
}

/// `--json` for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(Output.l.tr("Print machine-readable JSON instead of text.")))
    var json = false
}

/// A filter given several times, as the wire has it.
enum WireList {
    /// One value goes in the single field, which an older beautyd reads too; several in the list field.
    static func oneOrList<T>(_ values: [T]) -> (T?, [T]?) {
        values.count == 1 ? (values[0], nil) : (nil, values.isEmpty ? nil : values)
    }
}
