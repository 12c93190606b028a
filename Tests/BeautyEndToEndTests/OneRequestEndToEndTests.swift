import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus.ContactByName {
    /// A Unix socket in front of beautyd's that passes everything on and writes each request line
    /// beautyctl sends to a file before forwarding it: what a command asked, counted.
    static let countingProxy = """
        import os, socket, sys, threading
        listen_path, target, log = sys.argv[1:4]
        server = socket.socket(socket.AF_UNIX)
        server.bind(listen_path + ".new")
        server.listen(8)
        os.rename(listen_path + ".new", listen_path)
        def pump(src, dst, record):
            pending = b""
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    if record:
                        pending += data
                        while b"\\n" in pending:
                            line, pending = pending.split(b"\\n", 1)
                            with open(log, "ab") as f:
                                f.write(line + b"\\n")
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
        while True:
            client, _ = server.accept()
            daemon = socket.socket(socket.AF_UNIX)
            daemon.connect(target)
            threading.Thread(target=pump, args=(client, daemon, True), daemon=True).start()
            threading.Thread(target=pump, args=(daemon, client, False), daemon=True).start()
        """

    @Test(
        "appointment add/edit/split with --contact NAME and --category make one request; beautyd's refusals read as beautyctl's did, in the user's language"
    )
    func oneRequestPerCommand() async throws {
        let stack = try await Stack.start(server: false)
        defer { stack.shutdown() }
        _ = try await stack.beautyctlJSON(
            ["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"], as: Contact.self)
        let ewa = try await stack.beautyctlJSON(
            ["contact", "add", "Salon Ewa", "--phone", "+48 601 000 000"], as: Contact.self)
        let proxy = stack.directory + "/p.sock", log = stack.directory + "/requests.log"
        _ = try stack.spawn("proxy", Locations.python, ["-c", Self.countingProxy, proxy, stack.socketPath, log])
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: proxy) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        /// Runs beautyctl through the proxy: its result and the methods it called.
        func counted(_ arguments: [String]) async throws -> (CommandResult, [String]) {
            try? FileManager.default.removeItem(atPath: log)
            let result = try await stack.run(try Locations.built("beautyctl"), ["--socket", proxy] + arguments)
            let lines = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let methods = lines.split(separator: "\n").map { line in
                let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return request?["method"] as? String ?? String(line)
            }
            return (result, methods)
        }

        let (added, addCalls) = try await counted([
            "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "anna", "--category", "Nails",
            "--repeat", "FREQ=WEEKLY", "--json",
        ])
        #expect(added.status == .exited(0) && addCalls == ["appointment.add"], "\(added) \(addCalls)")
        let detail = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(added.stdout.utf8))
        #expect(detail.appointment.contactID == 1 && detail.appointment.category == "nails", "\(detail)")

        let (edited, editCalls) = try await counted([
            "appointment", "edit", "1", "--contact", "ewa", "--category", "hair",
        ])
        #expect(edited.status == .exited(0) && editCalls == ["appointment.edit"], "\(edited) \(editCalls)")
        let (split, splitCalls) = try await counted([
            "appointment", "split", "1", "--occurrence", "2030-01-20 10:00", "--contact", "+48 600 100 200",
        ])
        #expect(split.status == .exited(0) && splitCalls == ["appointment.split"], "\(split) \(splitCalls)")
        let shown = try await stack.beautyctlJSON(["appointment", "show", "1"], as: AppointmentDetail.self)
        #expect(shown.appointment.contactID == ewa.id && shown.appointment.category == "hair", "\(shown)")

        let (several, severalCalls) = try await counted([
            "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Salon",
        ])
        #expect(several.status == .exited(2) && severalCalls == ["appointment.add"], "\(several)")
        #expect(
            several.stderr.contains(
                "--contact: 'Salon' matches 2 contacts: 1 Salon Anna (+48 600 100 200), 2 Salon Ewa (+48 601 000 000); give the id or the phone number"
            ), "\(several)")
        let (unknown, unknownCalls) = try await counted([
            "appointment", "edit", "1", "--contact", "Kasia",
        ])
        #expect(unknown.status == .exited(4) && unknownCalls == ["appointment.edit"], "\(unknown)")
        #expect(
            unknown.stderr.contains(
                "--contact: no contact matches 'Kasia'; the contacts are: 1 Salon Anna (+48 600 100 200), 2 Salon Ewa (+48 601 000 000) (add one with: beautyctl contact add 'Kasia' --phone NUMBER)"
            ), "\(unknown)")
        let (typo, typoCalls) = try await counted([
            "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--category", "zzz",
        ])
        #expect(typo.status == .exited(2), "\(typo)")
        #expect(
            typo.stderr.contains("--category: 'zzz' is no category, nor a word of one; the categories:\n  body  Body")
                && typo.stderr.contains("    nails/manicure  Manicure"), "\(typo)")
        #expect(typoCalls.first == "appointment.add", "the tree is read only to list it: \(typoCalls)")

        stack.locale = "pl_PL.UTF-8"
        let (polish, _) = try await counted([
            "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Salon",
        ])
        #expect(
            polish.status == .exited(2)
                && polish.stderr.contains("--contact: „Salon” pasuje do kontaktów (2): 1 Salon Anna"),
            "\(polish)")
        let (polishUnknown, _) = try await counted(["appointment", "edit", "1", "--contact", "+48 700 000 000"])
        #expect(
            polishUnknown.status == .exited(4)
                && polishUnknown.stderr.contains(
                    "--contact: żaden kontakt nie pasuje do „+48 700 000 000”; istniejące kontakty: 1 Salon Anna")
                && polishUnknown.stderr.contains("beautyctl contact add NAZWA --phone '+48 700 000 000'"),
            "\(polishUnknown)")
        let (polishTypo, _) = try await counted(["appointment", "edit", "1", "--category", "zzz"])
        #expect(
            polishTypo.status == .exited(2) && polishTypo.stderr.contains("--category: „zzz” to nie kategoria")
                && polishTypo.stderr.contains("  nails  Paznokcie"), "\(polishTypo)")
        let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
        #expect(appointments.count == 2, "refused commands changed nothing: \(appointments)")
    }
}
