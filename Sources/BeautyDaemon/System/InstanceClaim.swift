import BeautyCore
import BeautyProtocol
import Foundation

/// What a running daemon holds for its life: the checked socket directory and its two locks, one
/// beside the database (one daemon per database) and one beside the socket (one per socket).
struct InstanceClaim {
    let socketDirectory: PrivateDirectory?
    let locks: [InstanceLock]

    /// Checks (creating where missing) the database's and the socket's directories and takes both
    /// locks. `explicitSocket`/`explicitDatabase`: the user chose the path with a flag. Under socket
    /// activation systemd made the socket, so only the database is claimed.
    static func claim(
        paths: DaemonPaths, explicitSocket: Bool, explicitDatabase: Bool, activated: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> InstanceClaim {
        var locks = [try lockDatabase(paths: paths, explicitDatabase: explicitDatabase)]
        guard !activated else { return InstanceClaim(socketDirectory: nil, locks: locks) }

        let socketDirectory: PrivateDirectory
        let socketDirectoryPath = (paths.socket as NSString).deletingLastPathComponent
        if explicitSocket {
            socketDirectory = try PrivateDirectory.open(socketDirectoryPath, kind: .chosen)
        } else {
            let base = try PrivateDirectory.open(SocketLocation.runtimeBase(environment: environment), kind: .own)
            socketDirectory = try base.child((socketDirectoryPath as NSString).lastPathComponent)
        }
        locks.append(
            try InstanceLock(
                (paths.socket as NSString).lastPathComponent + ".lock", in: socketDirectory,
                guarding: TranslatableText("socket %s", [.plain(paths.socket)])))
        return InstanceClaim(socketDirectory: socketDirectory, locks: locks)
    }

    /// The lock beside the database (its directory checked, created when missing): held by a
    /// running daemon and by `--recover`.
    static func lockDatabase(paths: DaemonPaths, explicitDatabase: Bool) throws -> InstanceLock {
        let directory = try PrivateDirectory.open(
            (paths.database as NSString).deletingLastPathComponent, kind: explicitDatabase ? .chosen : .data)
        return try InstanceLock(
            (paths.database as NSString).lastPathComponent + ".lock", in: directory,
            guarding: TranslatableText("database %s", [.plain(paths.database)]))
    }
}
