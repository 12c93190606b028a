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
        var info = stat()
        guard stat(passwordFile, &info) == 0 else {
            throw CalDAVError.malformed("cannot read the password file \(passwordFile): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0, info.st_uid == getuid() else {
            throw CalDAVError.passwordFileNotPrivate(passwordFile)
        }
        let text: String
        do {
            text = try String(contentsOfFile: passwordFile, encoding: .utf8)
        } catch {
            throw CalDAVError.malformed("cannot read the password file \(passwordFile): \(error.localizedDescription)")
        }
        // "\r\n" is one Character: split on any line break, not on "\n" alone.
        password = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !password.isEmpty else { throw CalDAVError.malformed("the password file \(passwordFile) is empty") }
    }

    public func authorization() async throws -> String {
        basicAuthorization(user: user, password: password)
    }
}

extension PasswordFileCredentials: CustomStringConvertible {
    /// Never the password: this may end up in a log.
    public var description: String { "PasswordFileCredentials(user: \(user), passwordFile: \(passwordFile))" }
}
