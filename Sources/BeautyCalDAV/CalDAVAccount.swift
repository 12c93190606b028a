import Foundation

/// A server (its base URL, or one calendar's URL) and how to sign in to it.
public struct CalDAVAccount: Sendable {
    public var url: URL
    public var credentials: any CalDAVCredentialSource
    /// Plain HTTP to a host other than this machine; loopback is always allowed.
    public var allowInsecure: Bool
    /// The longest one request may take, answer included (a server trickling its answer too).
    public var requestDeadline: Duration

    public init(
        url: URL, credentials: any CalDAVCredentialSource, allowInsecure: Bool = false,
        requestDeadline: Duration = .seconds(120)
    ) {
        self.url = url
        self.credentials = credentials
        self.allowInsecure = allowInsecure
        self.requestDeadline = requestDeadline
    }
}
