@testable import BeautyDaemon
import Foundation
import Testing

/// The lead of a commit ahead: the configured one on a quiet machine, twice the slowest recent commit
/// when commits take longer (a client's write in progress, a slow fsync, a late pass), never over 100 ms.
@Suite("Commit ahead: its lead follows how long recent commits took")
struct CommitLeadTests {
    @Test("quick commits keep the configured lead; a slow one doubles it, capped, until 32 quick ones follow")
    func leadFollowsRecentCommits() {
        var lead = CommitLead(configured: 0.005)
        #expect(lead.lead == 0.005)
        for _ in 0..<10 { lead.record(0.001) }
        #expect(lead.lead == 0.005)
        lead.record(0.012)  // waited for a client's write and its fsync
        #expect(abs(lead.lead - 0.024) < 1e-9)
        lead.record(5)  // a clock step or a stalled disk counts as the longest lead, no more
        #expect(lead.lead == CommitLead.longest)
        for _ in 0..<CommitLead.remembered { lead.record(0.001) }
        #expect(lead.lead == 0.005)
    }

    @Test("commit_ahead_ms = 0 commits nothing ahead, whatever commits took")
    func zeroStaysZero() {
        var lead = CommitLead(configured: 0)
        lead.record(0.05)
        #expect(lead.lead == 0)
    }
}
