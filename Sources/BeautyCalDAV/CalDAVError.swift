import Foundation

/// Everything the CalDAV client can fail with, in terms the sync engine acts on: a precondition failure
/// is a conflict, `syncTokenInvalid` means a full resync, `unreachable` means try again later.
public enum CalDAVError: Error, Equatable {
    /// Plain HTTP to a host that is not this machine, without the user's explicit permission.
    case insecureURL(String)
    /// The server refused the credentials (401).
    case unauthorized
    case notFound(String)
    /// The resource changed (or exists, or is gone) since the ETag the write was made against (412).
    case preconditionFailed(href: String)
    /// The server no longer knows the sync token: list everything again.
    case syncTokenInvalid
    case passwordFileNotPrivate(String)
    /// The password file cannot be opened or read: the system's error number.
    case passwordFileUnreadable(String, errno: Int32)
    case passwordFileEmpty(String)
    /// Larger than a password file can be, or not a regular file: it is not read.
    case passwordFileTooLarge(String, limit: Int)
    case server(status: Int, detail: String)
    /// No answer: connection refused, DNS, TLS, timeouts.
    case unreachable(String)
    /// An answer that is not what CalDAV promises, or a file that cannot be used as it is.
    case malformed(String)
    /// A write to an href outside the calendar followed (or on another origin): refused, nothing sent.
    case outsideCollection(String)
    /// Discovery leads to another origin (a principal, calendar home or redirect there): not followed,
    /// nothing sent there; the URL it names.
    case otherOrigin(String)
}

extension CalDAVError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .insecureURL(url):
            return
                "refusing plain HTTP to \(url): use https://, or allow it explicitly (--insecure) if you trust the network"
        case .unauthorized:
            return "the CalDAV server refused the user name or password (401 Unauthorized)"
        case let .notFound(what):
            return "not found on the CalDAV server: \(what)"
        case let .preconditionFailed(href):
            return "\(href) changed on the server since it was last read (412 Precondition Failed)"
        case .syncTokenInvalid:
            return "the CalDAV server no longer knows the sync token; a full listing is needed"
        case let .passwordFileNotPrivate(path):
            return "the password file \(path) must belong to you and be readable by you alone (chmod 600 \(path))"
        case let .passwordFileUnreadable(path, code):
            return "cannot read the password file \(path): \(String(cString: strerror(code)))"
        case let .passwordFileEmpty(path):
            return "the password file \(path) is empty"
        case let .passwordFileTooLarge(path, limit):
            return
                "the password file \(path) is not a regular file of at most \(limit) bytes: it should hold the password alone"
        case let .server(status, detail):
            return "the CalDAV server answered \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        case let .unreachable(reason):
            return "the CalDAV server cannot be reached: \(reason)"
        case let .malformed(reason):
            return "unexpected CalDAV answer: \(reason)"
        case let .outsideCollection(href):
            return "\(href) lies outside the calendar followed: nothing is sent there"
        case let .otherOrigin(url):
            return "the server sends beautyd to another host, \(url): nothing was sent there"
        }
    }
}

extension CalDAVError: LocalizedError {
    public var errorDescription: String? { description }
}
