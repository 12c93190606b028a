import Foundation
import NIOConcurrencyHelpers

/// HTTP Basic with a password the desktop's Secret Service keeps (GNOME Keyring, KeePassXC, KWallet
/// through its Secret Service bridge), read with libsecret's `secret-tool lookup` and the attributes it
/// was stored with, e.g. `secret-tool store --label beautyd service beautyd account phone user anna
/// origin https://cloud.example.org` (see `account(_:user:origin:)`).
///
/// The password is looked up at the first request, not at init: unlocking the keyring may ask the user
/// and must not hold up the daemon's start. It is then kept for the life of the credentials.
public struct SecretServiceCredentials: CalDAVCredentialSource {
    public let user: String
    public let attributes: [String: String]
    private let secretTool: String
    private let environment: [String: String]?
    private let password = NIOLockedValueBox<String?>(nil)

    /// `environment` replaces the process's for `secret-tool` (its D-Bus session address), nil keeps it.
    public init(
        user: String, attributes: [String: String], secretTool: String = "/usr/bin/secret-tool",
        environment: [String: String]? = nil
    ) {
        self.user = user
        self.attributes = attributes
        self.secretTool = secretTool
        self.environment = environment
    }

    /// The entry of sync account `account`: keyed by the origin the password goes to and the user as
    /// well as the account's name, so that an account whose URL changed (a restore, an account removed
    /// and added again for another server) is not handed the password kept for another server.
    public static func account(_ account: String, user: String, origin url: URL, environment: [String: String]? = nil)
        -> SecretServiceCredentials
    {
        SecretServiceCredentials(
            user: user, attributes: attributes(account: account, user: user, origin: url), environment: environment)
    }

    /// The attributes `account(_:user:origin:)` looks up, as `secret-tool store` takes them.
    public static func attributes(account: String, user: String, origin url: URL) -> [String: String] {
        ["service": "beautyd", "account": account, "user": user, "origin": CollectionScope.origin(of: url)]
    }

    public func authorization() async throws -> String {
        let secret: String
        if let known = password.withLockedValue({ $0 }) {
            secret = known
        } else {
            secret = try await lookUp()
            password.withLockedValue { $0 = secret }
        }
        return basicAuthorization(user: user, password: secret)
    }

    private var query: String {
        attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    private func lookUp() async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: secretTool) else {
            throw CredentialLookupError(
                "\(secretTool) is not installed (apt install libsecret-tools), so the password cannot be read from the Secret Service"
            )
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: secretTool)
        process.arguments = ["lookup"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(
                    throwing: CredentialLookupError("cannot run \(secretTool): \(error.localizedDescription)"))
            }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let detail = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, !text.isEmpty else {
            throw CredentialLookupError(
                "no password in the Secret Service for \(query)" + (detail.isEmpty ? "" : " (\(detail))")
                    + "; store one with: secret-tool store --label beautyd \(query)")
        }
        // secret-tool prints the secret as stored, with a line break only when printing to a terminal.
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}

extension SecretServiceCredentials: CustomStringConvertible {
    /// Never the password: this may end up in a log.
    public var description: String { "SecretServiceCredentials(user: \(user), \(query))" }
}

/// The password could not be had from where the account says it is kept.
public struct CredentialLookupError: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}
