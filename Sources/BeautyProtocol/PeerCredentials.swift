import Foundation

/// Who is at the other end of a Unix socket (SO_PEERCRED): both sides check it, the daemon to serve
/// only its user, beautyctl to talk only to its user's daemon. Mirrors `struct ucred` from
/// <sys/socket.h>, which Swift's Glibc module does not export.
public struct PeerCredentials: Sendable {
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0

    public init() {}

    /// The credentials of the peer of a connected Unix socket, or nil (errno set) when they cannot be read.
    public static func of(socket fd: Int32) -> PeerCredentials? {
        var peer = PeerCredentials()
        var size = socklen_t(MemoryLayout<PeerCredentials>.size)
        return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 ? peer : nil
    }
}
