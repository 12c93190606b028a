import BeautyCalDAV
import BeautyCore

/// Why a sync failed, as a template for a client to show in its user's language. The CalDAV client
/// knows nothing of the catalogs, so its errors are worded here again, as its `description` words them.
enum SyncErrorText {
    /// nil for an error beautyd did not word (a library's own).
    static func of(_ error: any Error) -> TranslatableText? {
        switch error {
        case let error as CalDAVError: of(error)
        case let error as ValidationError:
            error.translatable == nil ? nil : error.textWithField
        default: nil
        }
    }

    static func of(_ error: CalDAVError) -> TranslatableText {
        switch error {
        case let .insecureURL(url):
            TranslatableText(
                "refusing plain HTTP to %s: use https://, or allow it explicitly (--insecure) if you trust the network",
                [.plain(url)])
        case .unauthorized:
            TranslatableText("the CalDAV server refused the user name or password (401 Unauthorized)", [])
        case let .notFound(what):
            TranslatableText("not found on the CalDAV server: %s", [.plain(what)])
        case let .preconditionFailed(href):
            TranslatableText(
                "%s changed on the server since it was last read (412 Precondition Failed)", [.plain(href)])
        case .syncTokenInvalid:
            TranslatableText("the CalDAV server no longer knows the sync token; a full listing is needed", [])
        case let .passwordFileNotPrivate(path):
            TranslatableText(
                "the password file %s must belong to you and be readable by you alone (chmod 600 %s)",
                [.plain(path), .plain(path)])
        case let .passwordFileUnreadable(path, code):
            TranslatableText(
                "cannot read the password file %s: %s", [.plain(path), .message(SystemErrorText.text(code))])
        case let .passwordFileEmpty(path):
            TranslatableText("the password file %s is empty", [.plain(path)])
        case let .passwordFileTooLarge(path, limit):
            TranslatableText(
                "the password file %s is not a regular file of at most %s bytes: it should hold the password alone",
                [.plain(path), .plain(limit)])
        case let .server(status, detail) where detail.isEmpty:
            TranslatableText("the CalDAV server answered %s", [.plain(status)])
        case let .server(status, detail):
            TranslatableText("the CalDAV server answered %s: %s", [.plain(status), .plain(detail)])
        case let .unreachable(reason):
            TranslatableText("the CalDAV server cannot be reached: %s", [.plain(reason)])
        case let .malformed(reason):
            TranslatableText("unexpected CalDAV answer: %s", [.plain(reason)])
        case let .outsideCollection(href):
            TranslatableText("%s lies outside the calendar followed: nothing is sent there", [.plain(href)])
        case let .otherOrigin(url):
            TranslatableText("the server sends beautyd to another host, %s: nothing was sent there", [.plain(url)])
        }
    }
}
