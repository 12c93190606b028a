import BeautyLocalization
import Foundation

/// The four sections of the tip collection: face, hair, nails, body.
public enum TipCategory: String, Codable, Sendable, CaseIterable, Comparable {
    case face, hair, nails, body

    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// "face", "Hair", " NAILS ", or the name in Polish or Slovak with or without diacritics ("włosy",
    /// "paznokcie", "tvar", "telo") -> the category; anything else is refused with the list of names.
    public init(parsing text: String, field: String = "category") throws {
        let folded = TextFolding.fold(text.trimmingCharacters(in: .whitespaces))
        let named = TipCategory.allCases.first { category in
            Language.translated.contains { TextFolding.fold(category.title(Localizer.forLanguage($0))) == folded }
        }
        guard let category = TipCategory(rawValue: folded) ?? named else {
            let names = TipCategory.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(field: field, template: "'%s' is not a tip category (one of %s)", text, names)
        }
        self = category
    }

    public static func < (a: TipCategory, b: TipCategory) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One beauty tip: a short title and a few sentences. `id` is stable across versions.
public struct Tip: Codable, Sendable, Equatable, Hashable {
    public var id: Int
    public var category: TipCategory
    public var title: String
    public var text: String

    public init(id: Int, category: TipCategory, title: String, text: String) {
        self.id = id
        self.category = category
        self.title = title
        self.text = text
    }
}

/// A tip as its reader sees it: title, text and category name in their language. The catalogs
/// translate each tip's English title and text (`CatalogCoverageTests` checks every tip has them).
public struct TipText: Sendable, Equatable {
    public var title: String
    public var text: String
    public var category: String

    public init(_ tip: Tip, _ l: Localizer) {
        title = l.trArray(tip.title, [])
        text = l.trArray(tip.text, [])
        category = tip.category.title(l)
    }
}

extension TipCategory {
    /// "Face", "Twarz", "Tvár".
    public func title(_ l: Localizer) -> String {
        switch self {
        case .face: l.trc("tip category", "Face")
        case .hair: l.trc("tip category", "Hair")
        case .nails: l.trc("tip category", "Nails")
        case .body: l.trc("tip category", "Body")
        }
    }
}

/// The built-in tip collection (written for beautyd), its search, a random pick and the tip of the day.
public enum Tips {
    /// The longest search text accepted.
    public static let maxSearchLength = 200

    /// Every tip, by id; ids never change meaning, new tips get new ids.
    public static let all: [Tip] = [
        // Face
        Tip(
            id: 1, category: .face, title: "Cleanse before bed",
            text:
                "Take off make-up, sunscreen and the day's grime every evening, however tired you are. Skin left to sleep under a film of product breaks out more easily."
        ),
        Tip(
            id: 2, category: .face, title: "Sunscreen every morning",
            text:
                "Daylight ages the skin in winter and through windows too. Finish the morning routine with a broad-spectrum SPF 30 or higher, and reapply it on long days outdoors."
        ),
        Tip(
            id: 3, category: .face, title: "Pat, don't rub",
            text:
                "Dry your face by pressing a clean towel against it instead of scrubbing. Rubbing drags at thin skin, above all around the eyes."
        ),
        Tip(
            id: 4, category: .face, title: "Go easy on scrubs",
            text:
                "Exfoliate once or twice a week at most. Scrubbing more often strips the skin's protective layer and leaves it red, tight and sensitive."
        ),
        Tip(
            id: 5, category: .face, title: "Shape brows in daylight",
            text:
                "Pluck your eyebrows by a window rather than under a bathroom bulb, and step back from the mirror often. Take hairs from below the arch only, one at a time."
        ),
        Tip(
            id: 6, category: .face, title: "Wash your brushes weekly",
            text:
                "Clean make-up brushes and sponges once a week with mild soap and lukewarm water, then let them dry lying flat. Dirty tools carry bacteria back to your skin."
        ),
        Tip(
            id: 7, category: .face, title: "A cool start for puffy eyes",
            text:
                "Keep two teaspoons or your eye cream in the fridge and hold them gently under the eyes for a minute in the morning. The cold helps the puffiness settle."
        ),
        // Hair
        Tip(
            id: 8, category: .hair, title: "Conditioner on the ends",
            text:
                "Shampoo is for the scalp; conditioner belongs on the lengths and ends, the oldest and driest part of the hair. Rinse it out well so the hair does not go limp."
        ),
        Tip(
            id: 9, category: .hair, title: "Turn down the heat",
            text:
                "Use a heat protectant before blow-drying or straightening, and set tools to the lowest temperature that works for your hair. Let it air-dry part of the way first."
        ),
        Tip(
            id: 10, category: .hair, title: "A cool final rinse",
            text:
                "End the wash with a rinse of cool water. It smooths the surface of each strand, so the hair looks shinier and frizzes less."
        ),
        Tip(
            id: 11, category: .hair, title: "Gentle with wet hair",
            text:
                "Wet hair stretches and snaps easily. Detangle it with a wide-tooth comb, starting at the ends and working up towards the roots."
        ),
        Tip(
            id: 12, category: .hair, title: "Trim every two or three months",
            text:
                "A trim every 8 to 12 weeks removes split ends before they travel up the strand, so growing hair stays healthy-looking."
        ),
        Tip(
            id: 13, category: .hair, title: "Sleep on silk",
            text:
                "A silk or satin pillowcase rubs less than cotton, so you wake up with fewer tangles and less frizz. A loose braid protects long hair at night too."
        ),
        Tip(
            id: 14, category: .hair, title: "Banana and honey mask",
            text:
                "Mash a ripe banana with a spoonful of olive oil and a little honey, spread it over damp lengths and leave it on for 20 minutes. Rinse well, then shampoo as usual."
        ),
        // Nails
        Tip(
            id: 15, category: .nails, title: "File in one direction",
            text:
                "Sawing back and forth with a file frays the edge of the nail. Glide the file from each side towards the centre, always the same way."
        ),
        Tip(
            id: 16, category: .nails, title: "Leave the cuticles on",
            text:
                "Cuticles seal the nail bed against infection. Instead of cutting them, soften them with oil after a shower and push them back gently."
        ),
        Tip(
            id: 17, category: .nails, title: "A drop of oil at night",
            text:
                "Massage a drop of cuticle or almond oil into each nail before bed. Nails that stay supple peel and break less."
        ),
        Tip(
            id: 18, category: .nails, title: "Gloves for the chores",
            text:
                "Hot water and detergents dry out nails and the skin around them. Rubber gloves for dishes and cleaning make a manicure last longer too."
        ),
        Tip(
            id: 19, category: .nails, title: "Never skip the base coat",
            text: "A base coat helps polish hold on longer and keeps dark colours from staining the nail yellow."),
        Tip(
            id: 20, category: .nails, title: "Bare nails between manicures",
            text:
                "Between gel or acrylic sets, leave your nails bare for a few days and keep them short while they recover."
        ),
        Tip(
            id: 21, category: .nails, title: "Nails are not tools",
            text:
                "Opening cans or scraping off labels with a nail leads to cracks and splits. Reach for a coin or a key instead."
        ),
        // Body
        Tip(
            id: 22, category: .body, title: "Home-made sugar scrub",
            text:
                "Mix two spoons of sugar with one spoon of olive or coconut oil and massage it over damp skin in small circles once a week. Rinse with warm water and pat dry."
        ),
        Tip(
            id: 23, category: .body, title: "Lotion on damp skin",
            text:
                "Put on body lotion within a few minutes of a shower, while the skin is still slightly damp: it holds the moisture in."
        ),
        Tip(
            id: 24, category: .body, title: "Shorter, cooler showers",
            text: "Long hot showers wash away the skin's own oils. Keep them short and lukewarm, in winter above all."),
        Tip(
            id: 25, category: .body, title: "Soft heels overnight",
            text:
                "Smooth rough heels with a foot file on dry skin once a week, then apply a rich cream and sleep in cotton socks."
        ),
        Tip(
            id: 26, category: .body, title: "Sunscreen below the chin",
            text: "Neck, chest, hands and the backs of the ears see as much sun as the face. Give them sunscreen too."),
        Tip(
            id: 27, category: .body, title: "Sip through the day",
            text:
                "Skin shows thirst quickly. Keep a bottle of water in sight and drink a little often rather than a lot at once."
        ),
        Tip(
            id: 28, category: .body, title: "Shave with the grain",
            text:
                "Shave in the direction the hair grows, with a sharp blade and shaving gel, to avoid razor bumps and ingrown hairs."
        ),
    ]

    /// The tip with this id, if there is one.
    public static func tip(id: Int) -> Tip? {
        all.first { $0.id == id }
    }

    /// A search text as typed: trimmed, not empty, one line, at most `maxSearchLength` characters.
    public static func searchText(_ raw: String?, field: String = "search") throws -> String? {
        guard let raw else { return nil }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw ValidationError(field: field, template: "must not be empty (leave it out to see every tip)")
        }
        guard text.count <= maxSearchLength else {
            throw ValidationError(field: field, template: "must be at most %s characters", maxSearchLength)
        }
        guard !text.contains(where: \.isNewline) else {
            throw ValidationError(field: field, template: "must be one line")
        }
        return text
    }

    /// Tips of `category` (all when nil) whose title or text contains `search`, ignoring case and
    /// accents ("SILK" and "silk" match alike) and each word's ending (`WordStem`: "olejek" finds
    /// "olejku"); by id.
    public static func matching(category: TipCategory?, search: String?) -> [Tip] {
        matching(categories: category.map { [$0] } ?? [], searches: search.map { [$0] } ?? [])
    }

    /// Tips of any of `categories` containing any of `searches`; an empty list filters nothing.
    public static func matching(categories: [TipCategory], searches: [String]) -> [Tip] {
        let needles = ListFilter.needles(searches)
        return all.filter { tip in
            guard categories.isEmpty || categories.contains(tip.category) else { return false }
            // Every language's text of a tip is looked up only when there is something to find in it.
            guard !needles.isEmpty else { return true }
            let fields = searchable(tip)
            return needles.contains { WordStem.fields(fields, contain: $0) }
        }
    }

    /// A tip's title and text in English and in every translation: a search finds a tip in the
    /// words its reader saw, whichever language that was.
    static func searchable(_ tip: Tip) -> [String] {
        [tip.title, tip.text]
            + Language.translated.flatMap { language in
                let shown = TipText(tip, .forLanguage(language))
                return [shown.title, shown.text]
            }
    }

    /// One of the matching tips, picked at random; nil when none matches.
    public static func random<G: RandomNumberGenerator>(
        category: TipCategory?, search: String?, using generator: inout G
    ) -> Tip? {
        random(categories: category.map { [$0] } ?? [], searches: search.map { [$0] } ?? [], using: &generator)
    }

    public static func random<G: RandomNumberGenerator>(
        categories: [TipCategory], searches: [String], using generator: inout G
    ) -> Tip? {
        matching(categories: categories, searches: searches).randomElement(using: &generator)
    }

    /// The tip shown on `day`: the categories take turns (face, hair, nails, body, face...), and the
    /// whole collection comes round before a tip is repeated. The same day always gives the same tip.
    public static func ofTheDay(_ day: LocalDate) -> Tip {
        let rotation = rotationOrder
        let index = LocalDate(year: 2000, month: 1, day: 1).days(until: day)
        return rotation[((index % rotation.count) + rotation.count) % rotation.count]
    }

    /// First tip of each category, then the second of each, and so on.
    static let rotationOrder: [Tip] = {
        let byCategory = TipCategory.allCases.map { category in all.filter { $0.category == category } }
        let longest = byCategory.map(\.count).max() ?? 0
        return (0..<longest).flatMap { row in byCategory.compactMap { row < $0.count ? $0[row] : nil } }
    }()
}
