import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// A backup file is input like any other: another user may plant files beside it in a shared
// directory, and the file itself may be crafted. The attacker runs as uid 65534 (setpriv).

/// `python3 - BACKUP OUT`: the attacker's WAL, made from a copy of BACKUP with a sync account of its
/// own (the victim's password file, the attacker's server) and written whole to the WAL by VACUUM.
private let attackerWAL = """
    import os, shutil, sqlite3, sys
    backup, out = sys.argv[1], sys.argv[2]
    work = out + '.db'
    shutil.copy(backup, work)
    db = sqlite3.connect(work, isolation_level=None)
    db.execute('PRAGMA journal_mode=WAL')
    db.execute('PRAGMA wal_autocheckpoint=0')
    db.execute("INSERT INTO syncAccount(name, url, user, passwordFile, calendarURL, createdAt) VALUES "
               "('stolen', 'http://127.0.0.1:9/', 'victim', '/root/.beautyd-password', 'http://127.0.0.1:9/cal/', '2026-01-01 00:00:00.000')")
    db.execute('VACUUM')
    shutil.copy(work + '-wal', out)
    os.chmod(out, 0o644)
    os._exit(0)
    """

/// `python3 - FILE PREPARED SIDE`, as the attacker: prints "ready" once it watches FILE, and renames its
/// PREPARED file to SIDE the moment someone opens FILE (inotify IN_OPEN), so the side file appears after
/// a restore has checked what lies beside FILE and while it copies FILE.
private let plantOnOpen = """
    import ctypes, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    watched, prepared, side = sys.argv[1:4]
    fd = libc.inotify_init()
    if fd < 0 or libc.inotify_add_watch(fd, watched.encode(), 0x20) < 0:
        print('cannot watch', ctypes.get_errno(), flush=True)
        sys.exit(1)
    print('ready', flush=True)
    os.read(fd, 4096)
    os.rename(prepared, side)
    print('planted', flush=True)
    """

extension EndToEndServing {
    @Suite("Restore of a planted or crafted backup", .serialized)
    struct RestoreAdversary {
        static let attacker = ["--reuid=65534", "--regid=65534", "--clear-groups"]

        private func titles(_ stack: Stack) async throws -> [String] {
            try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self).map(\.title).sorted()
        }

        /// The victim's backup bk.sqlite (one appointment) in a sticky directory all may write to, and
        /// beside it `evil`, the attacker's WAL for it (`attackerWAL`).
        private func victimsBackupInSharedDirectory(_ stack: Stack) async throws -> (shared: String, backup: String) {
            chmod(stack.directory, 0o711)
            let shared = stack.directory + "/t"
            mkdir(shared, 0o755)
            chmod(shared, 0o1777)
            _ = try await stack.beautyctlOK([
                "appointment", "add", "The victim's own", "--at", iso(tomorrowOnTheHour()),
            ])
            let backup = shared + "/bk.sqlite"
            _ = try await stack.beautyctlOK(["backup", backup])
            let made = try await stack.run("/usr/bin/python3", ["-c", attackerWAL, backup, shared + "/evil"])
            guard made.status == .exited(0) else { throw HarnessError("the attacker's WAL: \(made)") }
            return (shared, backup)
        }

        @Test(
            "a -wal planted by another user beside a backup in a sticky directory is refused; the backup is one self-contained file"
        )
        func plantedWAL() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let (shared, backup) = try await victimsBackupInSharedDirectory(stack)
            // Bytes 18 and 19 of the header: 1 is a rollback journal, 2 is WAL (which reads a -wal beside it).
            let header = try Data(contentsOf: URL(fileURLWithPath: backup)).prefix(20)
            #expect(Array(header.suffix(2)) == [1, 1], "the backup is in WAL mode: \(Array(header.suffix(2)))")

            let setpriv = try Locations.system("setpriv", package: "util-linux")
            let planted = try await stack.run(
                setpriv, Self.attacker + ["--", "/bin/cp", shared + "/evil", backup + "-wal"])
            #expect(planted.status == .exited(0), "\(planted)")

            let refused = try await stack.beautyctl(["restore", backup, "--yes"])
            #expect(refused.status == .exited(1), "\(refused)")
            #expect(refused.stderr.contains("\(backup)-wal") && refused.stderr.contains("uid 65534"), "\(refused)")
            #expect(try await stack.beautyctlJSON(["sync", "list"], as: SyncAccountsResult.self).accounts.isEmpty)

            // The user's own file alone restores.
            unlink(backup + "-wal")
            _ = try await stack.beautyctlOK(["restore", backup, "--yes"])
            #expect(try await titles(stack) == ["The victim's own"])
            #expect(try await stack.beautyctlJSON(["sync", "list"], as: SyncAccountsResult.self).accounts.isEmpty)
        }

        @Test(
            "a -wal another user puts beside a backup while it is being copied is not read; a side file with another link is refused"
        )
        func walPlantedDuringTheCopy() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let (shared, backup) = try await victimsBackupInSharedDirectory(stack)
            // 64 MiB of free pages: copying the file takes a while, the attacker's moment.
            let padded = try await stack.run(
                try Locations.system("sqlite3", package: "sqlite3"),
                [
                    backup,
                    """
                    CREATE TABLE pad(x);
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) INSERT INTO pad SELECT zeroblob(1048576) FROM n;
                    DROP TABLE pad;
                    """,
                ], timeout: .seconds(120))
            #expect(padded.status == .exited(0), "\(padded)")
            var info = stat()
            try #require(
                stat(backup, &info) == 0 && info.st_size > 60 << 20, "the padding did not stay: \(info.st_size) bytes")
            chmod(backup, 0o644)  // the attacker may watch it (inotify needs read permission)

            let setpriv = try Locations.system("setpriv", package: "util-linux")
            let prepared = shared + "/.prepared"
            let copied = try await stack.run(setpriv, Self.attacker + ["--", "/bin/cp", shared + "/evil", prepared])
            #expect(copied.status == .exited(0), "\(copied)")
            let attacker = try stack.spawn(
                "planter", setpriv,
                Self.attacker + ["--", "/usr/bin/python3", "-c", plantOnOpen, backup, prepared, backup + "-wal"])
            let ready = await eventually(timeout: .seconds(60)) { attacker.stdout.contains("ready") ? true : nil }
            try #require(ready == true, "\(attacker.outputTail)")

            let restored = try await stack.beautyctl(["restore", backup, "--yes"])
            let planted = await eventually(timeout: .seconds(60)) { attacker.stdout.contains("planted") ? true : nil }
            _ = await attacker.stop()
            #expect(planted == true, "the attacker never saw the backup opened: \(attacker.outputTail)")
            #expect(restored.status == .exited(0), "\(restored)")
            #expect(
                try await stack.beautyctlJSON(["sync", "list"], as: SyncAccountsResult.self).accounts.isEmpty,
                "the attacker's WAL was restored\n\(restored)")
            #expect(try await titles(stack) == ["The victim's own"])

            // The user's own file under a second name (another user could have made the link) is refused as a side file.
            unlink(backup + "-wal")
            try await stack.sqlite(stack.directory + "/own.sqlite", "CREATE TABLE x(y);")
            #expect(link(stack.directory + "/own.sqlite", backup + "-wal") == 0)
            let linked = try await stack.beautyctl(["restore", backup, "--yes"])
            #expect(
                linked.status == .exited(1) && linked.stderr.contains("is not a regular file with one link"),
                "\(linked)")
            unlink(backup + "-wal")
        }

        @Test(
            "a crafted file: triggers, views, tables and indexes not beautyd's own are left out, its sync accounts listed and paused"
        )
        func craftedSchema() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            for title in ["One", "Two"] {
                _ = try await stack.beautyctlOK(["appointment", "add", title, "--at", iso(tomorrowOnTheHour())])
            }
            let crafted = stack.directory + "/crafted.sqlite"
            _ = try await stack.beautyctlOK(["backup", crafted])
            let changed = stack.directory + "/changed.sqlite"
            try FileManager.default.copyItem(atPath: crafted, toPath: changed)
            try await stack.sqlite(
                crafted,
                """
                CREATE TRIGGER evil AFTER INSERT ON appointment BEGIN DELETE FROM appointment; END;
                CREATE VIEW peek AS SELECT * FROM appointment;
                CREATE TABLE extra(x);
                CREATE INDEX extra_title ON appointment(title);
                INSERT INTO syncAccount(name, url, user, passwordFile, calendarURL, createdAt) VALUES
                    ('planted', 'http://127.0.0.1:9/', 'victim', '/root/.beautyd-password', 'http://127.0.0.1:9/cal/', '2026-01-01 00:00:00.000');
                """)

            let restored = try await stack.beautyctlJSON(["restore", crafted, "--yes"], as: RestoreResult.self)
            #expect(
                Set(restored.leftOut) == ["trigger evil", "view peek", "table extra", "index extra_title"],
                "\(restored.leftOut)")
            #expect(
                restored.syncAccounts.map(\.name) == ["planted"]
                    && restored.syncAccounts.first?.passwordFile == "/root/.beautyd-password")
            let leftovers = try await stack.sqlite(
                stack.databasePath,
                "SELECT name FROM sqlite_schema WHERE name IN ('evil', 'peek', 'extra', 'extra_title')")
            #expect(leftovers.stdout.isEmpty, "\(leftovers)")
            _ = try await stack.beautyctlOK(["appointment", "add", "Three", "--at", iso(tomorrowOnTheHour())])
            #expect(try await titles(stack) == ["One", "Three", "Two"])

            let accounts = try await stack.beautyctlJSON(["sync", "list"], as: SyncAccountsResult.self).accounts
            #expect(
                accounts.count == 1
                    && accounts[0].nextAttemptAt.map { $0 > Date().addingTimeInterval(365 * 86400) } == true,
                "the restored account would sync by itself: \(accounts)")
            #expect(
                accounts.first?.lastError?.contains("paused until you run 'beautyctl sync now planted'") == true,
                "\(accounts)")
            let told = try await stack.beautyctlOK(["restore", crafted, "--yes"])
            #expect(
                told.stdout.contains(
                    "Sync account planted (http://127.0.0.1:9/cal/, user victim) came with the backup: paused until you run 'beautyctl sync now planted'."
                ), "\(told)")
            #expect(told.stdout.contains("trigger evil"), "\(told)")

            // beautyd's own table defined otherwise: refused, nothing changes.
            try await stack.sqlite(changed, "ALTER TABLE contact ADD COLUMN secret TEXT")
            let refused = try await stack.beautyctl(["restore", changed, "--yes"])
            #expect(
                refused.status == .exited(1) && refused.stderr.contains("defines beautyd's table contact otherwise"),
                "\(refused)")
            #expect(try await titles(stack) == ["One", "Two"])
        }

        @Test(
            "an account restored under its name with another calendar gets a new client: sync now goes to the restored calendar"
        )
        func restoredAccountGetsNewClient() async throws {
            let first = try await CalDAVTestServer.start(.xandikos)
            let second = try await CalDAVTestServer.start(.xandikos)
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            do {
                try await stack.followCalendar(of: first, name: "cal")
                _ = try await stack.syncNow("cal")
                let backup = stack.directory + "/backup.sqlite"
                _ = try await stack.beautyctlOK(["backup", backup])
                try await stack.sqlite(
                    backup,
                    """
                    UPDATE syncAccount SET url = '\(second.calendarURL.absoluteString)', calendarURL = '\(second.calendarURL.absoluteString)',
                        syncToken = NULL, ctag = NULL;
                    DELETE FROM syncResource;
                    """)
                _ = try await stack.beautyctlOK(["restore", backup, "--yes"])
                _ = try await stack.beautyctlOK([
                    "appointment", "add", "After the restore", "--at", iso(tomorrowOnTheHour()),
                ])
                _ = try await stack.syncNow("cal")
                #expect(
                    try await second.events().values.contains { $0.contains("SUMMARY:After the restore") },
                    "not on the restored calendar")
                #expect(
                    try await !first.events().values.contains { $0.contains("SUMMARY:After the restore") },
                    "the old client was used")
            } catch {
                await first.stop()
                await second.stop()
                throw error
            }
            await first.stop()
            await second.stop()
        }

        @Test("two restores in the same second keep two files; an existing name is never overwritten")
        func uniqueBeforeRestoreNames() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["appointment", "add", "In the backup", "--at", iso(tomorrowOnTheHour())])
            let backup = stack.directory + "/backup.sqlite"
            _ = try await stack.beautyctlOK(["backup", backup])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Only before the first restore", "--at", iso(tomorrowOnTheHour()),
            ])
            let first = try await stack.beautyctlJSON(["restore", backup, "--yes"], as: RestoreResult.self)
            // Every name the next restore could take in the next two minutes is taken already.
            let seconds = Int(first.kept.split(separator: "-").last ?? "") ?? 0
            #expect(seconds > 0, "\(first.kept)")
            let stem = String(first.kept.dropLast(String(seconds).count))
            let planted = (seconds + 1...seconds + 120).map { "\(stem)\($0)" }
            for name in planted { try "planted\n".write(toFile: name, atomically: false, encoding: .utf8) }

            let second = try await stack.beautyctlJSON(["restore", backup, "--yes"], as: RestoreResult.self)
            #expect(second.kept != first.kept && !planted.contains(second.kept), "\(first.kept) / \(second.kept)")
            let kept = try await stack.sqlite(first.kept, "SELECT title FROM appointment ORDER BY title")
            #expect(
                kept.stdout == "In the backup\nOnly before the first restore\n",
                "the data from before the first restore is lost: \(kept)")
            for name in planted {
                #expect(try String(contentsOfFile: name, encoding: .utf8) == "planted\n", "\(name) was overwritten")
            }
        }

        @Test("a FIFO to restore and a device to back up to are refused as not regular files; beautyd goes on")
        func fifoAndDevice() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let fifo = stack.directory + "/fifo.sqlite"
            #expect(mkfifo(fifo, 0o600) == 0)
            let fromFIFO = try await stack.beautyctl(["restore", fifo, "--yes"])
            #expect(fromFIFO.status == .exited(1) && fromFIFO.stderr.contains("is not a regular file"), "\(fromFIFO)")

            // /dev/full's own numbers (1, 7), made here so nothing outside the test is at stake.
            let device = stack.directory + "/full"
            let made = try await stack.run(
                try Locations.system("mknod", package: "coreutils"), [device, "c", "1", "7"])
            #expect(made.status == .exited(0), "\(made)")
            let toDevice = try await stack.beautyctl(["backup", device])
            #expect(toDevice.status == .exited(1) && toDevice.stderr.contains("is not a regular file"), "\(toDevice)")
            var info = stat()
            #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device was replaced")
            _ = try await stack.beautyctlOK(["status"])
        }

        @Test("a file whose schema steps are missing or out of order is refused, and beautyd goes on")
        func schemaStepsOutOfOrder() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["appointment", "add", "Kept", "--at", iso(tomorrowOnTheHour())])
            let backup = stack.directory + "/backup.sqlite"
            _ = try await stack.beautyctlOK(["backup", backup])
            for (name, sql) in [
                ("none", "DELETE FROM grdb_migrations;"),
                ("gap", "DELETE FROM grdb_migrations WHERE rowid = (SELECT min(rowid) FROM grdb_migrations);"),
            ] {
                let crafted = stack.directory + "/\(name).sqlite"
                try FileManager.default.copyItem(atPath: backup, toPath: crafted)
                try await stack.sqlite(crafted, sql)
                let restored = try await stack.beautyctl(["restore", crafted, "--yes"])
                #expect(
                    restored.status == .exited(1)
                        && restored.stderr.contains("does not list beautyd's schema steps in order"),
                    "\(name): \(restored)")
                #expect(try await titles(stack) == ["Kept"], "\(name): beautyd did not go on")
            }
        }

        @Test(
            "a path, a sync account and an object name with escape sequences and a newline reach the log escaped exactly once"
        )
        func logLinesEscapeOnce() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let backup = stack.directory + "/b\u{1B}[2J\nx.sqlite"
            _ = try await stack.beautyctlOK(["backup", backup, "--yes"])
            try await stack.sqlite(
                backup,
                """
                INSERT INTO syncAccount(name, url, user, passwordFile, calendarURL, createdAt) VALUES
                    ('evil' || char(27) || ']0;x' || char(7), 'http://127.0.0.1:9/', 'u' || char(10) || 'v', NULL,
                     'http://127.0.0.1:9/cal/' || char(8238), '2026-01-01 00:00:00.000');
                CREATE VIEW "peek\u{1B}[2J" AS SELECT 1;
                """)
            _ = try await stack.beautyctlOK(["restore", backup, "--yes"])
            let log = daemon.stderr
            let path = stack.directory + #"/b\u001b[2J\u000ax.sqlite"#
            #expect(log.contains("database backed up to \(path) ("), "\(log)")
            #expect(
                log.contains(
                    "restore from \(path): sync account "
                        + #"evil\u001b]0;x\u0007 (http://127.0.0.1:9/cal/\u202e, user u\u000av) paused until 'sync now evil\u001b]0;x\u0007'"#
                ),
                "\(log)")
            #expect(log.contains(#"left out what is not beautyd's own: view peek\u001b[2J"#), "\(log)")
            #expect(
                !log.contains(#"\\u00"#) && !log.contains("evil?") && !log.contains("peek?"),
                "escaped twice or replaced: \(log)")
            #expect(!log.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(log)")
        }

        @Test("a backup with another page size (512, 65536) is restored")
        func otherPageSizes() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Kept across page sizes", "--at", iso(tomorrowOnTheHour()),
            ])
            let backup = stack.directory + "/backup.sqlite"
            _ = try await stack.beautyctlOK(["backup", backup])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Not in the backup", "--at", iso(tomorrowOnTheHour()),
            ])
            for size in [512, 65536] {
                let resized = stack.directory + "/page-\(size).sqlite"
                try FileManager.default.copyItem(atPath: backup, toPath: resized)
                try await stack.sqlite(resized, "PRAGMA journal_mode = DELETE; PRAGMA page_size = \(size); VACUUM;")
                #expect(try await stack.sqlite(resized, "PRAGMA page_size").stdout == "\(size)\n")
                let restored = try await stack.beautyctl(["restore", resized, "--yes"])
                #expect(restored.status == .exited(0), "page size \(size): \(restored)")
                #expect(try await titles(stack) == ["Kept across page sizes"], "page size \(size)")
                _ = try await stack.beautyctlOK([
                    "appointment", "add", "Not in the backup", "--at", iso(tomorrowOnTheHour()),
                ])
            }
        }
    }
}
