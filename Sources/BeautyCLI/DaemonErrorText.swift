import BeautyCore
import BeautyLocalization
import BeautyProtocol

/// A daemon's error in the user's language, from the codes and arguments of its `data` (the wire
/// stays English): a missing item by its kind and id, a message by its template and arguments.
/// Anything else, or a template without a translation, is the daemon's English `message`.
enum DaemonErrorText {
    static func message(_ error: RPCErrorObject, _ l: Localizer) -> String {
        guard l.language != .english, let data = error.data else { return error.message }
        if error.code == RPCErrorCode.notFound, let kind = data.kind, let id = data.id, let text = notFound(kind, id, l)
        {
            return text
        }
        guard let text = data.translatable?.rendered(l) else { return error.message }
        return data.field.map { "\(ErrorFieldName.text($0).rendered(l)): \(text)" } ?? text
    }

    /// "no appointment with id 99" for the kinds of item beautyd keeps; nil for another.
    static func notFound(_ kind: MissingItemKind, _ id: Int64, _ l: Localizer) -> String? {
        switch kind {
        case .appointment: l.tr("no appointment with id %s", id)
        case .contact: l.tr("no contact with id %s", id)
        case .medication: l.tr("no medication with id %s", id)
        case .dose: l.tr("no dose with id %s", id)
        case .budgetEntry: l.tr("no budget entry with id %s", id)
        case .waterRecord: l.tr("no water record with id %s", id)
        case .measurement: l.tr("no measurement with id %s", id)
        case .other: nil
        }
    }
}
