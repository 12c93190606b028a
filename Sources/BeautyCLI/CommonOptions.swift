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

/// `--json` for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false
}

/// A filter given several times, as the wire has it.
enum WireList {
    /// One value goes in the single field, which an older beautyd reads too; several in the list field.
    static func oneOrList<T>(_ values: [T]) -> (T?, [T]?) {
        values.count == 1 ? (values[0], nil) : (nil, values.isEmpty ? nil : values)
    }
}
