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
}
