import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

@Suite("appointment.add/edit name a contact and a category as typed; the daemon finds and checks them")
struct AppointmentReferencesTests {
    @Test("contact: one match is linked, several or none refused with field contact; contactID still works")
    func contactAsTyped() async throws {
        let now = instant("2030-01-15 09:00")
        let daemon = try await InProcessDaemon(now: now)
        let anna = try await daemon.call(ContactRPC.add, ContactAddParams(name: "Salon Anna", phone: "+48 600 100 200"))
        let ewa = try await daemon.call(ContactRPC.add, ContactAddParams(name: "Salon Ewa", phone: "+48 601 000 000"))
        var add = AppointmentAddParams(title: "Nails", start: now.addingTimeInterval(86_400))
        add.contact = "anna"
        let added = try await daemon.call(AppointmentRPC.add, add)
        #expect(added.appointment.contactID == anna.id && added.contact?.id == anna.id, "\(added)")

        add.contact = "Salon"
        let several = await #expect(throws: RPCErrorObject.self) { try await daemon.call(AppointmentRPC.add, add) }
        #expect(
            several?.code == RPCErrorCode.invalidParams && several?.data?.field == "contact",
            "\(String(describing: several))")
        #expect(
            several?.data?.translatable?.english
                == ContactLookup.ambiguity("Salon", option: "--contact", matches: [anna, ewa]).english)
        add.contact = "Kasia"
        let none = await #expect(throws: RPCErrorObject.self) { try await daemon.call(AppointmentRPC.add, add) }
        #expect(none?.code == RPCErrorCode.notFound && none?.data?.field == "contact" && none?.data?.kind == nil)
        #expect(
            none?.data?.translatable?.english
                == "--contact: no contact matches 'Kasia'; the contacts are: 1 Salon Anna (+48 600 100 200), 2 Salon Ewa (+48 601 000 000) (add one with: beautyctl contact add 'Kasia' --phone NUMBER)",
            "\(String(describing: none))")

        var edit = AppointmentEditParams(id: added.appointment.id!)
        edit.contact = "+48 601 000 000"
        #expect(try await daemon.call(AppointmentRPC.edit, edit).appointment.contactID == ewa.id)
        var byID = AppointmentEditParams(id: added.appointment.id!)
        byID.contactID = anna.id
        #expect(try await daemon.call(AppointmentRPC.edit, byID).appointment.contactID == anna.id)
        #expect(try await daemon.call(AppointmentRPC.list, AppointmentListParams()).count == 1, "refusals add nothing")
    }

    @Test("requireKnownCategory refuses a category not in the tree; without it a category is kept as given")
    func categoryAsTyped() async throws {
        let now = instant("2030-01-15 09:00")
        let daemon = try await InProcessDaemon(now: now)
        var add = AppointmentAddParams(title: "Nails", start: now.addingTimeInterval(86_400))
        add.category = "zzz"
        add.requireKnownCategory = true
        let typo = await #expect(throws: RPCErrorObject.self) { try await daemon.call(AppointmentRPC.add, add) }
        #expect(typo?.code == RPCErrorCode.invalidParams && typo?.data?.field == "category")
        #expect(
            typo?.data?.text == "--category: '%s' is no category, nor a word of one; the categories:\n%s"
                && typo?.data?.args?.last?.contains("    nails/manicure  Manicure") == true,
            "\(String(describing: typo))")
        add.category = "nails/manicure"
        #expect(try await daemon.call(AppointmentRPC.add, add).appointment.category == "nails/manicure")
        add.category = "zzz"
        add.requireKnownCategory = nil
        #expect(try await daemon.call(AppointmentRPC.add, add).appointment.category == "zzz")
    }
}
