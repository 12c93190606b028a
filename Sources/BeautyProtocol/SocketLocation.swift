import Foundation

/// Where daemon and client meet when no `--socket` is given.
public enum SocketLocation {
    /// `$XDG_RUNTIME_DIR/beautyd/beautyd.sock`, or a per-user directory under /tmp without one.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp/beautyd-\(getuid())"
        return runtime + "/beautyd/beautyd.sock"
    }

    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxPathBytes = 107
}
