import Foundation
import Testing

@testable import BeautyNotify

/// A server that answers Notify late has shown the reminders those calls told of, whichever notification
/// tells of them next: a group that gained or lost members, or a single reminder now in a group.
@Suite struct UnansweredNotifiesTests {
    let server = ":1.7"
    let asked = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a single reminder answered late counts as shown inside the group that takes it in next")
    func singleThenGroup() {
        var notifies = UnansweredNotifies()
        notifies.add(["A"], server: server, at: asked)
        notifies.serverAnswered()
        #expect(notifies.shownLate(among: ["A", "B"]) == ["A"])
        #expect(notifies.shownLate(among: ["B"]).isEmpty)
    }

    @Test("a group answered late counts as shown for each member, also once a member has left it")
    func groupThenSmallerGroup() {
        var notifies = UnansweredNotifies()
        notifies.add(["A", "B"], server: server, at: asked)
        notifies.serverAnswered()
        #expect(notifies.shownLate(among: ["B", "C"]) == ["B"])
        #expect(notifies.shownLate(among: ["A"]) == ["A"])
    }

    @Test("nothing counts as shown while the server has not answered, nor after it left the bus")
    func notAnsweredOrGone() {
        var notifies = UnansweredNotifies()
        notifies.add(["A"], server: server, at: asked)
        #expect(notifies.shownLate(among: ["A"]).isEmpty)
        #expect(notifies.pending?.keys == ["A"])
        notifies.serverGone()
        notifies.serverAnswered()
        #expect(notifies.shownLate(among: ["A"]).isEmpty)
    }

    @Test("a Notify left unanswered by another server starts over: the first server's calls went with it")
    func anotherServer() {
        var notifies = UnansweredNotifies()
        notifies.add(["A"], server: server, at: asked)
        notifies.add(["B"], server: ":1.9", at: asked)
        notifies.serverAnswered()
        #expect(notifies.shownLate(among: ["A", "B"]) == ["B"])
    }
}
