import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The user's zone changing where the live watch cannot see it: while beautyd is stopped, and by a
// zone file copied over the localtime file instead of a new link.

extension Stack {
    /// The doses of a once-daily medication as beautyd stores them for the next two days: the
    /// agenda's entries there (a stored dose has an id; a planned one only shown has 0), the
    /// armed trigger, and every pending delivery (only that medication has any).
    struct StoredDoses: Equatable, CustomStringConvertible {
        var agenda: [Date]
        var allStored: Bool
        var nextTrigger: Date?
        var pendingDeliveries: Int

        var description: String {
            "agenda \(agenda.map(iso)) (stored: \(allStored)), next trigger \(nextTrigger.map(iso) ?? "none"), \(pendingDeliveries) pending"
        }
    }

    func storedDoses() throws -> StoredDoses {
        let client = try client()
        var params = AgendaParams(from: Date(), to: Date().addingTimeInterval(2 * 86_400))
        params.kind = .medication
        let agenda: AgendaResult = try client.call("agenda", params)
        let status = try client.status()
        return StoredDoses(
            agenda: agenda.entries.map(\.start), allStored: agenda.entries.allSatisfy { $0.id != 0 },
            nextTrigger: status.nextTrigger?.fireAt, pendingDeliveries: status.counts.pendingDeliveries)
    }

    /// Waits (up to `timeout`) until the stored doses are those of a daily `hour`:00 in `zone`, one a day.
    func waitForDoses(at hour: Int, in zone: TimeZone, timeout: Duration = .seconds(3)) async throws -> (
        expected: StoredDoses, seen: StoredDoses
    ) {
        let first = next(hour: hour, in: zone, after: Date())
        let expected = StoredDoses(
            agenda: [first, next(hour: hour, in: zone, after: first)], allStored: true,
            nextTrigger: first, pendingDeliveries: 2)
        let seen = try await eventually(timeout: timeout, interval: .milliseconds(20)) { () -> StoredDoses? in
            let doses = try storedDoses()
            return doses == expected ? doses : nil
        }
        return (expected, try seen ?? storedDoses())
    }
}

extension EndToEndTiming {
    @Suite("Zone changes beautyd cannot watch live", .serialized)
    struct ZoneChanges {
        static let utc = TimeZone(identifier: "UTC")!, warsaw = TimeZone(identifier: "Europe/Warsaw")!

        @Test(
            "zone changed while stopped: a daily dose is re-planned at start, and a round trip back leaves one dose a day"
        )
        func zoneChangedWhileStopped() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            // Six hours ahead on UTC's clock, so at least four on Warsaw's: today's dose is still to come in either.
            let hour = (LocalTime.calendar(Self.utc).component(.hour, from: Date()) + 6) % 24
            try await stack.startDaemon(environment: ["TZ": "UTC"])
            let added = try await stack.beautyctl([
                "med", "add", "Iron", "--at", String(format: "%02d:00", hour), "--json",
            ])
            try #require(added.status == .exited(0), "\(added)")
            let inUTC = try await stack.waitForDoses(at: hour, in: Self.utc)
            try #require(inUTC.seen == inUTC.expected, "planned in UTC")

            for (zone, other) in [(Self.warsaw, Self.utc), (Self.utc, Self.warsaw)] {
                #expect(await stack.stopDaemon() == .exited(0), "\(stack.logs)")
                try await stack.startDaemon(environment: ["TZ": zone.identifier])
                let doses = try await stack.waitForDoses(at: hour, in: zone)
                #expect(
                    doses.seen == doses.expected,
                    "after a start in \(zone.identifier) the stored doses must be \(hour):00 there, not \(other.identifier)'s"
                )
                let today: MedicationDetail = try await stack.beautyctlJSON(["med", "show", "1"])
                #expect(today.today.count <= 1, "a once-daily medication has two doses today: \(today.today)")
                #expect(
                    today.upcoming.prefix(2) == doses.expected.agenda[...],
                    "the plan and the store disagree: \(today.upcoming.prefix(2))")
                #expect(stack.daemon?.stderr.contains("time zone is now \(zone.identifier)") == true, "\(stack.logs)")
            }
        }

        @Test("the localtime file replaced by a copied zone file, then rewritten in place: doses follow its content")
        func copiedZoneFile() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let localtime = stack.directory + "/localtime"
            let newYork = TimeZone(identifier: "America/New_York")!
            func zoneFile(_ zone: TimeZone) throws -> Data {
                try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + zone.identifier))
            }
            // Not within a minute of 08:00 in either zone, so "the next 08:00" cannot change under the test.
            for zone in [Self.warsaw, newYork] {
                let wait = nextEight(in: zone, after: Date()).timeIntervalSinceNow
                if wait < 60 { try await Task.sleep(for: .seconds(wait + 1)) }
            }
            // Started on a regular file: its content says Warsaw.
            try zoneFile(Self.warsaw).write(to: URL(fileURLWithPath: localtime))
            try await stack.startDaemon(environment: ["TZ": "", "BEAUTYD_LOCALTIME": localtime])
            let added = try await stack.beautyctl(["med", "add", "Iron", "--at", "08:00", "--json"])
            try #require(added.status == .exited(0), "\(added)")
            let atStart = try await stack.waitForDoses(at: 8, in: Self.warsaw)
            #expect(
                atStart.seen == atStart.expected, "a regular localtime file with Warsaw's content read as another zone")

            // Rewritten in place with New York's zone (cp onto it: truncate, write, close).
            let changed = Date()
            try zoneFile(newYork).write(to: URL(fileURLWithPath: localtime))
            let rewritten = try await stack.waitForDoses(at: 8, in: newYork)
            #expect(rewritten.seen == rewritten.expected, "not re-planned for New York within 3 s\n\(stack.logs)")
            report(
                String(
                    format: "zone file rewritten in place -> dose re-planned in the new zone: %.0f ms",
                    Date().timeIntervalSince(changed) * 1000))

            // A link replaced by a copy (rm + cp, as some tools do).
            try FileManager.default.removeItem(atPath: localtime)
            try FileManager.default.createSymbolicLink(
                atPath: localtime, withDestinationPath: "/usr/share/zoneinfo/Europe/Warsaw")
            let linked = try await stack.waitForDoses(at: 8, in: Self.warsaw)
            #expect(linked.seen == linked.expected, "the link back to Warsaw was not followed\n\(stack.logs)")
            try FileManager.default.removeItem(atPath: localtime)
            try zoneFile(newYork).write(to: URL(fileURLWithPath: localtime))
            let copied = try await stack.waitForDoses(at: 8, in: newYork)
            #expect(
                copied.seen == copied.expected, "a copy of New York's file over the link was not noticed\n\(stack.logs)"
            )
            #expect(stack.daemon?.stderr.contains("time zone is now America/New_York") == true, "\(stack.logs)")
        }
    }
}
