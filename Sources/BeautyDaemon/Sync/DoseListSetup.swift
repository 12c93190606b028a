import BeautyCalDAV
import BeautyCore
import Foundation

/// The task list an account's doses go to (`sync add --doses`, `sync doses NAME on`): one made in
/// the calendar home for VTODO, or one the user names, never the calendar the account follows.
struct DoseListSetup {
    /// The name of a list beautyd makes ("Medications" in the daemon's language).
    let listName: String

    /// The list, made or found; `wanted` names an existing one (display name or URL), `events` is the
    /// calendar the account follows.
    func list(_ client: CalDAVClient, wanted: String?, events: URL) async throws -> CalDAVCalendar {
        let list: CalDAVCalendar
        if let wanted {
            let found = try await client.discoverTaskLists()
            guard let match = SyncSetup.match(wanted, in: found) else {
                if found.isEmpty {
                    throw ValidationError(
                        field: "dosesList", template: "no task list '%s' on the server; it has: none", wanted)
                }
                throw ValidationError(
                    field: "dosesList", template: "no task list '%s' on the server; it has: %s", wanted,
                    SyncSetup.listing(found))
            }
            list = match
        } else {
            list = try await client.makeCalendar(named: listName, components: [.todo])
            // MKCALENDAR asked for tasks; a server that made something else would drop them.
            guard list.supportsTodos else {
                throw ValidationError(
                    field: "doses",
                    template:
                        "the server made the task list %s but says it holds no tasks (no VTODO in its supported-calendar-component-set); remove it there, or name a task list with --doses-list",
                    list.url.absoluteString)
            }
        }
        // Servers do not keep events out of a task list: the same collection would mix both.
        let slashes = CharacterSet(charactersIn: "/")
        guard
            SyncEngine.key(list.url.path).trimmingCharacters(in: slashes)
                != SyncEngine.key(events.path).trimmingCharacters(in: slashes)
        else {
            throw ValidationError(
                field: "dosesList",
                template: "the task list for the doses must not be the calendar the account follows (%s)",
                list.url.absoluteString)
        }
        return list
    }

    /// iCloud's Reminders left CalDAV: tasks put there would never reach the iPhone's Reminders.
    static func checkHost(_ url: URL) throws {
        let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard host == "icloud.com" || host.hasSuffix(".icloud.com") else { return }
        throw ValidationError(
            field: "doses",
            template:
                "iCloud cannot carry the doses: its Reminders app no longer uses CalDAV. Put them on another CalDAV server (Nextcloud, Radicale, Fastmail...) and add that server on the iPhone as a CalDAV account (Settings, Calendar, Accounts, Add Account, Other)"
        )
    }
}
