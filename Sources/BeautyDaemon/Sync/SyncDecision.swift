import BeautyCore
import Foundation

/// The sync engine's decisions that need no server: whether two versions of an event say the same,
/// and how long to wait after failures. Pure, so the rules are tested on their own.
enum SyncDecision {
    /// Whether the local version and the server's describe the same event: every field beautyd keeps,
    /// compared without what only one side has (row ids, links, bookkeeping times, which contact row).
    static func same(_ local: [Appointment], _ server: [Appointment]) -> Bool {
        normalized(local) == normalized(server)
    }

    private static func normalized(_ appointments: [Appointment]) -> [Appointment] {
        appointments.map { a in
            var a = a
            a.id = nil
            a.seriesID = nil
            a.contactID = nil
            a.createdAt = Date(timeIntervalSince1970: 0)
            a.updatedAt = Date(timeIntervalSince1970: 0)
            a.recurrence?.changed = []
            a.tags = a.tags.sorted()
            return a
        }
        .sorted { ($0.recurrenceID ?? .distantPast, $0.uid ?? "") < ($1.recurrenceID ?? .distantPast, $1.uid ?? "") }
    }

    /// What happens to an event the server changed while a local change of it waits in the outbox.
    enum Outcome: Equatable {
        /// Both sides say the same: nothing to do but to forget the local change.
        case agree
        /// The server's version wins in place; the local one is kept as a conflict copy. `reason` is stored
        /// in English and is an msgid of the catalogs, so a client shows it in its user's language.
        case serverWins(reason: String)
    }

    /// `local` nil: the event was deleted here; `server` nil: deleted on the server.
    static func resolve(local: [Appointment]?, server: [Appointment]?) -> Outcome {
        switch (local, server) {
        case (nil, nil): return .agree
        case (nil, _?):
            return .serverWins(
                reason: TranslatableText("deleted here while changed on the server: the server's version is back", [])
                    .text)
        case (_?, nil):
            return .serverWins(
                reason: TranslatableText(
                    "changed here while deleted on the server: the local version is kept as this copy", []
                ).text)
        case let (local?, server?):
            return same(local, server)
                ? .agree
                : .serverWins(
                    reason: TranslatableText(
                        "changed on both sides: the server's version is kept, the local one as this copy", []
                    ).text)
        }
    }

    /// The wait before the next automatic attempt after `failures` failed syncs in a row: one minute,
    /// doubling, at most `cap` (the sync interval, so a server down for hours is tried at that pace).
    static func backOff(failures: Int, cap: TimeInterval) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let wait = 60 * pow(2, Double(min(failures - 1, 20)))
        return min(wait, max(cap, 60))
    }
}
