import ArgumentParser
import BeautyProtocol
import Foundation

/// `--socket`, accepted by every command that talks to the daemon.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The daemon's socket (default: $BEAUTYD_SOCKET, else $XDG_RUNTIME_DIR/beautyd/beautyd.sock).", valueName: "path"))
    var socket: String?

    var client: DaemonClient {
        let environment = ProcessInfo.processInfo.environment
        return DaemonClient(socketPath: socket ?? environment["BEAUTYD_SOCKET"] ?? SocketLocation.defaultPath())
    }
}

/// `--json` or `--csv` for the record lists (CSV opens in a spreadsheet).
struct ListOutputOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(help: "Print CSV instead of text: a header line, then one line per item (times in ISO 8601).")
    var csv = false

    func validate() throws {
        if json, csv { throw ValidationError("--json and --csv: choose one") }
    }

    /// Prints the list as JSON or as CSV when one was asked for; false when the text form is wanted.
    func printed<T: Encodable>(_ value: T, csv header: [String], _ rows: () -> [[String]]) throws -> Bool {
        if json { try Output.json(value) } else if csv { Output.csv(header, rows()) }
        return json || csv
    }
}

/// `--json` for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false
}
