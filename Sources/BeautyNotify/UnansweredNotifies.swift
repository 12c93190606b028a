import Foundation

/// Notify calls that ended without an answer (our D-Bus timeout, or the bus's NoReply) while their server
/// stayed on the bus. A stopped or busy server still has them queued and shows them when it resumes, so
/// sending one again would show it twice: they are settled by what the server does next instead.
/// Kept by delivery key, not by notification: the next notification telling of a reminder may be another
/// one (a group that gained or lost members, or a single reminder that joined a group).
struct UnansweredNotifies: Equatable {
    struct Pending: Equatable {
        /// The unique bus name (":1.42") of the server that was asked.
        var server: String
        var since: Date
        /// The delivery keys the unanswered Notify calls told of.
        var keys: Set<String>
    }

    private(set) var pending: Pending?
    /// Delivery keys whose Notify the server handled after we had stopped waiting: shown, never to be sent again.
    private var answered = Set<String>()

    mutating func add(_ keys: [String], server: String, at date: Date) {
        if pending?.server != server { pending = Pending(server: server, since: date, keys: []) }
        pending?.keys.formUnion(keys)
    }

    /// The server answered a call sent after them, so it has handled them: they were shown.
    mutating func serverAnswered() {
        answered.formUnion(pending?.keys ?? [])
        pending = nil
    }

    /// The server left the bus (or the bus went away): whatever it still had queued went with it.
    mutating func serverGone() { pending = nil }

    /// Those of `keys` an unanswered Notify turned out to show.
    func shownLate(among keys: [String]) -> Set<String> { answered.intersection(keys) }
}
