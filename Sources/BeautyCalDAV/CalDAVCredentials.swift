import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the Authorization header comes from. Kept to one call so that OAuth 2.0 (a bearer token that
/// refreshes itself) can be added later without the sync engine knowing.
public protocol CalDAVCredentialSource: Sendable {
    /// The value of the Authorization header for the next request.
    func authorization() async throws -> String
}

/// The Authorization value of HTTP Basic (RFC 7617), UTF-8 as every server in scope expects.
func basicAuthorization(user: String, password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
}

/// HTTP Basic with a password (or an app password) read from a file that only its owner can read.
public struct PasswordFileCredentials: CalDAVCredentialSource {
    public let user: String
    public let passwordFile: String
    private let password: String

    /// Reads the password now (its first line), refusing a file that group or others may read or write,
    /// or that belongs to someone else.
    public init(user: String, passwordFile: String) throws {
        self.user = user
        self.passwordFile = passwordFile
        let text = try Self.readSmall(passwordFile)
        // "\r\n" is one Character: split on any line break, not on "\n" alone.
        password =
            text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(
                String.init) ?? ""
        guard !password.isEmpty else { throw CalDAVError.passwordFileEmpty(passwordFile) }
    }

    /// A password file holds one line; reading more than this is refused rather than done, so a huge
    /// file (or a device) costs neither memory nor time.
    public static let maximumFileSize = 4096

    /// The file's text, read through one descriptor that was checked to be a private regular file of
    /// the user's own and no larger than `maximumFileSize`.
    private static func readSmall(_ passwordFile: String) throws -> String {
        let fd = open(passwordFile, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw CalDAVError.passwordFileUnreadable(passwordFile, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CalDAVError.passwordFileUnreadable(passwordFile, errno: errno)
        }
        guard info.st_mode & 0o077 == 0, info.st_uid == geteuid() else {
            throw CalDAVError.passwordFileNotPrivate(passwordFile)
        }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumFileSize else {
            throw CalDAVError.passwordFileTooLarge(passwordFile, limit: maximumFileSize)
        }
        // One byte more than allowed tells a file that grew since fstat.
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw CalDAVError.passwordFileUnreadable(passwordFile, errno: errno)
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maximumFileSize else {
            throw CalDAVError.passwordFileTooLarge(passwordFile, limit: maximumFileSize)
        }
        guard let text = String(validating: bytes[..<filled], as: UTF8.self) else {
            throw CalDAVError.malformed("cannot read the password file \(passwordFile): it is not UTF-8 text")
        }
        return text
    }

    public func authorization() async throws -> String {
        basicAuthorization(user: user, password: password)
    }
}

extension PasswordFileCredentials: CustomStringConvertible {
    /// Never the password: this may end up in a log.
    public var description: String { "PasswordFileCredentials(user: \(user), passwordFile: \(passwordFile))" }
}
