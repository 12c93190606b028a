import BeautyLocalization
import BeautyProtocol

/// The words for the fields `--clear` takes, in the user's language; the wire keeps the codes.
enum FieldName {
    static func appointment(_ code: String, _ l: Localizer) -> String {
        switch AppointmentEditParams.Clearable(rawValue: code) {
        case .address: l.trc("field", "address")
        case .notes: l.trc("field", "notes")
        case .contact: l.trc("field", "contact")
        case .category: l.trc("field", "category")
        case .color: l.trc("field", "colour")
        case .price: l.trc("field", "price")
        case .reminders: l.trc("field", "reminders")
        case .timeZone: l.trc("field", "zone")
        case .recurrence: l.trc("field", "repetition")
        case .cycle: l.trc("field", "cycle")
        case nil: code
        }
    }

    /// A contact's field by the code `--clear` takes (email, first, last, address, language).
    static func contact(_ code: String, _ l: Localizer) -> String {
        switch code {
        case "email": l.trc("field", "e-mail")
        case "first": l.trc("field", "first name")
        case "last": l.trc("field", "last name")
        case "address": l.trc("field", "address")
        case "language": l.trc("field", "language")
        default: code
        }
    }

    static func medication(_ code: String, _ l: Localizer) -> String {
        switch MedicationEditParams.Clearable(rawValue: code) {
        case .dose: l.trc("field", "dose")
        case .notes: l.trc("field", "notes")
        case .startDate: l.trc("field", "start date")
        case .endDate: l.trc("field", "end date")
        case .stock: l.trc("field", "stock")
        case .lowStock: l.trc("field", "low stock")
        case .timeZone: l.trc("field", "zone")
        case nil: code
        }
    }
}
