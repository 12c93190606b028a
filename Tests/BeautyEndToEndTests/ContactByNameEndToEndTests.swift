import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("--contact by phone number or name", .serialized)
    struct ContactByName {
        @Test(
            "appointment --contact takes an id, a phone number or a unique name; several or none is an error listing the contacts"
        )
        func contactByPhoneOrName() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let anna = try await stack.beautyctlJSON(
                ["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"], as: Contact.self)
            let ewa = try await stack.beautyctlJSON(
                ["contact", "add", "Salon Ewa", "--phone", "+48 601 000 000"], as: Contact.self)
            for (query, expected) in [
                ("Salon Anna", anna.id), ("+48 600 100 200", anna.id), ("601 000 000", ewa.id), ("ewa", ewa.id),
                ("\(anna.id!)", anna.id),
            ] {
                let detail = try await stack.beautyctlJSON(
                    ["appointment", "add", "Haircut", "--at", "2030-01-05 10:00", "--contact", query],
                    as: AppointmentDetail.self)
                #expect(
                    detail.appointment.contactID == expected && detail.contact?.id == expected,
                    "--contact '\(query)': \(detail)")
            }
            let edited = try await stack.beautyctlJSON(
                ["appointment", "edit", "1", "--contact", "salon ewa"], as: AppointmentDetail.self)
            #expect(edited.appointment.contactID == ewa.id)

            let several = try await stack.beautyctl([
                "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Salon",
            ])
            #expect(several.status == .exited(2), "\(several)")
            #expect(
                several.stderr.contains("--contact") && several.stderr.contains("matches 2 contacts")
                    && several.stderr.contains("\(anna.id!) Salon Anna (+48 600 100 200)")
                    && several.stderr.contains("Salon Ewa"), "\(several)")
            let unknown = try await stack.beautyctl([
                "appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Kasia",
            ])
            #expect(unknown.status == .exited(4), "no terminal: no offer to add, no such item: \(unknown)")
            #expect(
                unknown.stderr.contains("no contact matches 'Kasia'") && unknown.stderr.contains("Salon Anna")
                    && unknown.stderr.contains("beautyctl contact add 'Kasia' --phone"), "\(unknown)")
            let unknownPhone = try await stack.beautyctl(["appointment", "edit", "1", "--contact", "+48 700 000 000"])
            #expect(
                unknownPhone.status == .exited(4) && unknownPhone.stderr.contains("--phone '+48 700 000 000'"),
                "\(unknownPhone)")
            let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            #expect(
                appointments.count == 5 && appointments.first?.contactID == ewa.id,
                "refused commands changed nothing: \(appointments)")
            #expect(
                try await stack.beautyctlJSON(["contact", "list"], as: [Contact].self).count == 2,
                "nothing added without asking")
        }
    }
}

extension EndToEndBus.ContactByName {
    /// Runs beautyctl on a pseudo-terminal (so stdin is a tty), typing `input` into it; its status and all it printed.
    static func onTerminal(_ stack: Stack, _ arguments: [String], input: String) async throws -> CommandResult {
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            os.write(fd, os.environ["TYPED"].encode())
            out = b""
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            sys.stdout.buffer.write(out)
            _, status = os.waitpid(pid, 0)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let beautyctl = try Locations.built("beautyctl")
        return try await stack.run(
            Locations.python, ["-c", script, beautyctl, "--socket", stack.socketPath] + arguments,
            environment: ["TYPED": input])
    }

    @Test("on a terminal, an unknown --contact is offered to be added: yes and a phone number add it and book with it")
    func unknownContactOfferedOnATerminal() async throws {
        let stack = try await Stack.start(server: false)
        defer { stack.shutdown() }
        let added = try await Self.onTerminal(
            stack, ["appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Kasia"],
            input: "y\n+48 700 000 000\n")
        #expect(added.status == .exited(0), "\(added)")
        #expect(
            added.stdout.contains("No contact matches 'Kasia'. Add it?")
                && added.stdout.contains("Phone number of Kasia"), "\(added)")
        let contacts = try await stack.beautyctlJSON(["contact", "list"], as: [Contact].self)
        #expect(contacts.map(\.name) == ["Kasia"] && contacts.first?.phone == "+48 700 000 000", "\(contacts)")
        let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
        #expect(appointments.map(\.contactID) == [contacts.first?.id], "\(appointments)")

        let declined = try await Self.onTerminal(
            stack, ["appointment", "add", "Nails", "--at", "2030-01-07 10:00", "--contact", "Ola"],
            input: "n\n")
        #expect(declined.status == .exited(4) && declined.stdout.contains("nothing was added"), "\(declined)")
        #expect(try await stack.beautyctlJSON(["contact", "list"], as: [Contact].self).count == 1)
    }
}
