import BeautyProtocol
import Foundation

/// Where beautyd keeps its files, following the XDG base directory specification.
public struct DaemonPaths: Sendable, Equatable {
    public var config: String
    public var database: String
    public var socket: String

    /// Defaults from the environment; explicit paths (command-line flags) win.
    public static func resolve(
        config: String?, database: String?, socket: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DaemonPaths {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func xdg(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        return DaemonPaths(
            config: config ?? xdg("XDG_CONFIG_HOME", ".config") + "/beautyd/config.toml",
            database: database ?? xdg("XDG_DATA_HOME", ".local/share") + "/beautyd/beautyd.sqlite",
            socket: socket ?? SocketLocation.defaultPath(environment: environment))
    }
}
