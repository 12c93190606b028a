import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndServing {
    @Suite("Backup and restore while beautyd runs", .serialized)
    struct BackupRestore {
        /// Every record list, as JSON text, to compare before and after.
        static func snapshot(_ stack: Stack) async throws -> [String] {
            var lists: [String] = []
            for command in [
                ["appointment", "list"], ["contact", "list"], ["med", "list"], ["water", "list", "--days", "30"],
                ["budget", "list"], ["measure", "list"],
            ] {
                lists.append(try await stack.beautyctlOK(command + ["--json"]).stdout)
            }
            return lists
        }

        @Test(
            "backup while running; restore over it and after a wipe: every record and the ledger are back, nothing shown twice"
        )
        func backupWipeRestore() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"])
            let shown = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Shown before", "--at", iso(tomorrowOnTheHour()),
                    "--remind-at", iso(wholeSecond(after: 1.5)), "--contact", "Salon Anna",
                ],
                as: AppointmentDetail.self)
            _ = try await stack.beautyctlOK(["med", "add", "Vitamin D", "--at", "08:00", "--stock", "30"])
            _ = try await stack.beautyctlOK(["water", "add", "250", "--at", "in 0s"])
            _ = try await stack.beautyctlOK(["budget", "add", "Szampon", "12,99"])
            _ = try await stack.beautyctlOK(["measure", "add", "--weight", "62,5", "--height", "168"])
            #expect(await stack.waitForNotifications(1, timeout: .seconds(10)).count == 1)
            // Due just after the backup: the backup has it pending, the running daemon shows it.
            let later = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Shown after the backup", "--at", iso(tomorrowOnTheHour()),
                    "--remind-at", iso(wholeSecond(after: 2)),
                ], as: AppointmentDetail.self)
            let file = stack.directory + "/backup.sqlite"
            let backedUp = try await stack.beautyctlOK(["backup", file])
            #expect(backedUp.stdout.hasPrefix("Backed up the database to \(file)"), "\(backedUp)")
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "the backup is readable by its owner only")
            #expect(await stack.waitForNotifications(2, timeout: .seconds(10)).count == 2)
            let before = try await Self.snapshot(stack)

            // Restore over the running database: the reminder shown since the backup stays shown.
            let refused = try await stack.beautyctl(["restore", file])
            #expect(refused.status == .exited(2) && refused.stderr.contains("--yes"), "\(refused)")
            let restored = try await stack.beautyctlJSON(["restore", file, "--yes"], as: RestoreResult.self)
            #expect(
                restored.deliveriesKept >= 1 && FileManager.default.fileExists(atPath: restored.kept), "\(restored)")
            try await Task.sleep(for: .seconds(2.5))
            #expect(stack.notifications().count == 2, "a reminder was shown twice: \(stack.notifications())")
            let laterDetail = try await stack.beautyctlJSON(
                ["appointment", "show", "\(later.appointment.id!)"], as: AppointmentDetail.self)
            #expect(laterDetail.deliveries.map(\.state) == [.fired], "\(laterDetail.deliveries)")

            // A second backup, then the database is wiped: the restore brings back every record and the ledger.
            _ = try await stack.beautyctlOK(["backup", file, "--yes"])
            await stack.stopDaemon()
            for suffix in ["", "-wal", "-shm"] { unlink(stack.databasePath + suffix) }
            try await stack.startDaemon()
            #expect(try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self).isEmpty, "wiped")
            _ = try await stack.beautyctlOK(["restore", file, "--yes"])
            let after = try await Self.snapshot(stack)
            #expect(after == before, "records differ after the restore")
            let detail = try await stack.beautyctlJSON(
                ["appointment", "show", "\(shown.appointment.id!)"], as: AppointmentDetail.self)
            #expect(detail.deliveries.map(\.state) == [.fired] && detail.contact?.name == "Salon Anna", "\(detail)")
            try await Task.sleep(for: .seconds(2.5))
            #expect(stack.notifications().count == 2, "a reminder was shown twice: \(stack.notifications())")

            // Files that are not a backup it can use: nothing restored, the message says why.
            let garbage = stack.directory + "/garbage.sqlite"
            try Data(String(repeating: "not a database ", count: 300).utf8).write(to: URL(fileURLWithPath: garbage))
            let newer = stack.directory + "/newer.sqlite"
            try FileManager.default.copyItem(atPath: file, toPath: newer)
            try await stack.sqlite(newer, "INSERT INTO grdb_migrations(identifier) VALUES ('v99: from the future')")
            for (path, words) in [
                (garbage, ["cannot"]), (newer, ["newer", "v99"]), (stack.directory + "/none.sqlite", ["no file"]),
            ] {
                let result = try await stack.beautyctl(["restore", path, "--yes"])
                #expect(
                    result.status != .exited(0) && words.allSatisfy { result.stderr.contains($0) }, "\(path): \(result)"
                )
            }
            let live = try await stack.beautyctl(["backup", stack.databasePath, "--yes"])
            #expect(live.status == .exited(1) && live.stderr.contains("the database beautyd uses"), "\(live)")
            // A link (say one another user planted in /tmp) is refused, and its target left as it was.
            let precious = stack.directory + "/precious.txt"
            try "mine\n".write(toFile: precious, atomically: false, encoding: .utf8)
            #expect(symlink(precious, stack.directory + "/linked.sqlite") == 0)
            let linked = try await stack.beautyctl(["backup", stack.directory + "/linked.sqlite", "--yes"])
            #expect(linked.status == .exited(1) && linked.stderr.contains("is a symbolic link"), "\(linked)")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "mine\n")
            #expect(try await Self.snapshot(stack) == before, "a refused restore changed something")
        }
    }
}
