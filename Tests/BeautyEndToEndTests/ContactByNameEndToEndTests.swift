import BeautyCore
import BeautyProtocol
import Foundation
import Testing

extension EndToEnd {
    @Suite("--contact by phone number or name", .serialized)
    struct ContactByName {
        @Test("appointment --contact takes an id, a phone number or a unique name; several or none is an error listing the contacts")
        func contactByPhoneOrName() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let anna = try await stack.beautyctlJSON(["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"], as: Contact.self)
            let ewa = try await stack.beautyctlJSON(["contact", "add", "Salon Ewa", "--phone", "+48 601 000 000"], as: Contact.self)
            for (query, expected) in [("Salon Anna", anna.id), ("+48 600 100 200", anna.id), ("601 000 000", ewa.id), ("ewa", ewa.id),
                                      ("\(anna.id!)", anna.id)] {
                let detail = try await stack.beautyctlJSON(["appointment", "add", "Haircut", "--at", "2030-01-05 10:00", "--contact", query],
                                                           as: AppointmentDetail.self)
                #expect(detail.appointment.contactID == expected && detail.contact?.id == expected, "--contact '\(query)': \(detail)")
            }
            let edited = try await stack.beautyctlJSON(["appointment", "edit", "1", "--contact", "salon ewa"], as: AppointmentDetail.self)
            #expect(edited.appointment.contactID == ewa.id)

            let several = try await stack.beautyctl(["appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Salon"])
            #expect(several.status == .exited(2), "\(several)")
            #expect(several.stderr.contains("--contact") && several.stderr.contains("matches 2 contacts")
                    && several.stderr.contains("\(anna.id!) Salon Anna (+48 600 100 200)") && several.stderr.contains("Salon Ewa"), "\(several)")
            let unknown = try await stack.beautyctl(["appointment", "add", "Nails", "--at", "2030-01-06 10:00", "--contact", "Kasia"])
            #expect(unknown.status == .exited(4), "no terminal: no offer to add, no such item: \(unknown)")
            #expect(unknown.stderr.contains("no contact matches 'Kasia'") && unknown.stderr.contains("Salon Anna")
                    && unknown.stderr.contains("beautyctl contact add 'Kasia' --phone"), "\(unknown)")
            let unknownPhone = try await stack.beautyctl(["appointment", "edit", "1", "--contact", "+48 700 000 000"])
            #expect(unknownPhone.status == .exited(4) && unknownPhone.stderr.contains("--phone '+48 700 000 000'"), "\(unknownPhone)")
            let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            #expect(appointments.count == 5 && appointments.first?.contactID == ewa.id, "refused commands changed nothing: \(appointments)")
            #expect(try await stack.beautyctlJSON(["contact", "list"], as: [Contact].self).count == 2, "nothing added without asking")
        }
    }
}
