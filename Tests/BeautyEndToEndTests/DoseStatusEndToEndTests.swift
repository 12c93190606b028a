import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndServing {
    @Suite("Medications: status and watch name doses, status says notifications are off", .serialized)
    struct DoseStatus {
        @Test("status says when notifications are off; status and watch call a dose 'dose N', not 'medication N'")
        func statusAndWatchSpeakOfDoses() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let calendar = LocalTime.calendar(testTimeZone)
            let later = Date().addingTimeInterval(2 * 3600)
            let clock = String(
                format: "%02d:%02d", calendar.component(.hour, from: later), calendar.component(.minute, from: later))
            let _: MedicationDetail = try await stack.beautyctlJSON(["med", "add", "Cisza test", "--at", clock])
            let next = try #require(try stack.client().status().nextTrigger)
            #expect(next.itemKind == .medication)
            let status = try await stack.beautyctl(["status"])
            #expect(
                status.stdout.contains("Cisza test (dose \(next.itemID))") && !status.stdout.contains("(medication "),
                "\(status)")
            #expect(!status.stdout.contains("switched off"), "\(status)")

            let off = try await stack.beautyctl(["notifications", "off"])
            #expect(off.status == .exited(0), "\(off)")
            let silent = try await stack.beautyctl(["status"])
            #expect(
                silent.stdout.contains("switched off:  nothing is shown"),
                "status must say notifications are off: \(silent)")
            let json = try stack.client().status()
            #expect(json.notificationsEnabled == false)

            let watch = try stack.spawn(
                "watch", try Locations.built("beautyctl"), ["--socket", stack.socketPath, "watch"])
            defer { _ = watch.killNow() }
            try await Task.sleep(for: .milliseconds(500))
            let skipped = try await stack.beautyctl(["dose", "skip", String(next.itemID)])
            #expect(skipped.status == .exited(0), "\(skipped)")
            let line = await eventually(timeout: .seconds(5)) { watch.stdout.contains("skipped") ? watch.stdout : nil }
            #expect(
                line?.contains("skipped dose \(next.itemID): Cisza test") == true,
                "watch: \(watch.stdout) \(watch.stderr)")
        }
    }
}
