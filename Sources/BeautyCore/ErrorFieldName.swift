import BeautyLocalization

/// The name of a field an error is about, as a message of its own: "tytuł: nie może być pusty" in
/// Polish. The wire keeps the field's code (`data.field`); a field beautyctl has no word for (an
/// option `--at`, a path in a list `appointments[3].title`) is shown as it is.
public enum ErrorFieldName {
    /// `field` as a message (its msgid is the field's code), or as it is when it has no translation.
    public static func text(_ field: String) -> TranslatableText {
        word(field, .english) == nil ? .verbatim(field) : TranslatableText(field, [])
    }

    /// The field in `l`'s language, nil for a field without a word of its own. The msgids are the codes.
    public static func word(_ field: String, _ l: Localizer) -> String? {
        switch field {
        case "title": l.tr("title")
        case "amount": l.tr("amount")
        case "occurrence": l.tr("occurrence")
        case "start": l.tr("start")
        case "end": l.tr("end")
        case "path": l.tr("path")
        case "name": l.tr("name")
        case "repeat": l.tr("repeat")
        case "every": l.tr("every")
        case "calendar": l.tr("calendar")
        case "between": l.tr("between")
        case "passwordFile": l.tr("passwordFile")
        case "line": l.tr("line")
        case "day": l.tr("day")
        case "contact": l.tr("contact")
        case "notes": l.tr("notes")
        case "search": l.tr("search")
        case "address": l.tr("address")
        case "zone": l.tr("zone")
        case "weight": l.tr("weight")
        case "height": l.tr("height")
        case "status": l.tr("status")
        case "stock": l.tr("stock")
        case "until": l.tr("until")
        case "days": l.tr("days")
        case "dose": l.tr("dose")
        case "limit": l.tr("limit")
        case "offset": l.tr("offset")
        case "language": l.tr("language")
        default: nil
        }
    }
}
