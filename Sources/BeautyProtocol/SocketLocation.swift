import Foundation

/// Where daemon and client meet when no `--socket` is given.
public enum SocketLocation {
    /// `$XDG_RUNTIME_DIR/beautyd/beautyd.sock`, or the same under the per-user fallback directory.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        runtimeBase(environment: environment) + "/beautyd/beautyd.sock"
    }

    /// `$XDG_RUNTIME_DIR`, or `${TMPDIR:-/tmp}/beautyd-UID` without one. The daemon creates the
    /// fallback 0700 and refuses one that is not its own (another user may create it first).
    public static func runtimeBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime }
        var temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        while temporary.count > 1, temporary.hasSuffix("/") { temporary.removeLast() }
        return (temporary == "/" ? "" : temporary) + "/beautyd-\(getuid())"
    }

    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxPathBytes = 107
}
