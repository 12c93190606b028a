import BeautyLocalization

/// The built-in treatment categories' titles in the user's language (the daemon keeps them in
/// English, in the migration that made the tree); the names (`hair/cut`) are codes, the same in
/// every language, as `--category` takes them. A category beautyd does not know keeps its title.
enum CategoryTitle {
    static func title(name: String, stored: String, _ l: Localizer) -> String {
        switch name {
        case "hair": l.trc("category", "Hair")
        case "hair/cut": l.trc("category", "Haircut")
        case "hair/colour": l.trc("category", "Colouring")
        case "hair/styling": l.trc("category", "Styling")
        case "nails": l.trc("category", "Nails")
        case "nails/manicure": l.trc("category", "Manicure")
        case "nails/pedicure": l.trc("category", "Pedicure")
        case "face": l.trc("category", "Face")
        case "face/facial": l.trc("category", "Facial")
        case "face/brows": l.trc("category", "Brows and lashes")
        case "face/makeup": l.trc("category", "Make-up")
        case "body": l.trc("category", "Body")
        case "body/massage": l.trc("category", "Massage")
        case "body/waxing": l.trc("category", "Waxing")
        case "body/spa": l.trc("category", "Spa")
        default: stored
        }
    }
}
