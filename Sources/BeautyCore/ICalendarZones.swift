import Foundation

// TZID values resolved to zones: IANA names, Windows names, VTIMEZONE blocks.

/// Turns TZID values into zones, once per name per calendar. A VTIMEZONE that is not named for
/// an IANA zone is evaluated: an IANA zone that agrees with its rules over the years the file
/// uses stands for it, else its standard offset does; either way `warnings` says so.
struct ZoneResolver {
    private var definitions: [String: ICalComponent] = [:]
    private var cache: [String: (zone: TimeZone, name: String?)] = [:]
    /// The years of the DATE-TIME values that name each TZID.
    private var yearsUsed: [String: ClosedRange<Int>] = [:]
    /// What was read other than as written: "time zone 'X' read as Europe/Berlin …".
    private(set) var warnings: [ImportWarning] = []
    /// Where a TZID that names no zone puts its times: the user's own zone, as for floating times.
    let fallback: TimeZone
    private var unknown: Set<String> = []
    /// Each use of a TZID that names no zone, in order: the event that used it says so.
    private(set) var unknownUses: [(tzid: String, line: Int)] = []

    init(calendar: ICalComponent, fallback: TimeZone) {
        self.fallback = fallback
        for child in calendar.children where child.name == "VTIMEZONE" {
            if let tzid = child.first("TZID")?.value.trimmingWhitespace(), definitions[tzid] == nil {
                definitions[tzid] = child
            }
        }
        for event in calendar.children where event.name == "VEVENT" {
            for property in event.properties {
                guard let tzid = property.param("TZID")?.trimmingWhitespace(),
                    let year = Int(property.value.trimmingWhitespace().prefix(4))
                else { continue }
                let known = yearsUsed[tzid] ?? year...year
                yearsUsed[tzid] = min(known.lowerBound, year)...max(known.upperBound, year)
            }
        }
    }

    /// The zone for a TZID and the IANA name to keep for it (nil for a bare fixed offset that
    /// has no Etc/GMT name). `line` is the line of the property that uses the TZID.
    mutating func zone(_ rawTZID: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        let tzid = rawTZID.trimmingWhitespace()
        let resolved = try cache[tzid] ?? resolve(tzid, line: line)
        cache[tzid] = resolved
        if unknown.contains(tzid) { unknownUses.append((tzid, line)) }
        return resolved
    }

    private mutating func resolve(_ tzid: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        if let offset = Self.namedOffset(tzid) { return Self.fixed(offset) }
        if let iana = Self.iana(tzid) { return (iana.zone, iana.name) }
        if let name = Self.windowsZones[tzid], let zone = TimeZone(identifier: name) { return (zone, name) }
        guard let definition = definitions[tzid] else {
            // Floating, like a time without TZID: the event follows the user's zone.
            unknown.insert(tzid)
            return (fallback, nil)
        }
        // libical (Thunderbird, Evolution) names the IANA zone of its VTIMEZONEs.
        if let location = definition.first("X-LIC-LOCATION"), let iana = Self.iana(location.value) {
            return (iana.zone, iana.name)
        }
        let rules = try VTimezoneRules(definition, tzid: tzid)
        if let offset = rules.fixedOffset { return Self.fixed(offset) }
        let latestStart = rules.observances.map(\.start.year).max()!
        let used = yearsUsed[tzid] ?? latestStart...latestStart
        let years = used.lowerBound...min(used.upperBound, used.lowerBound + 9)
        let span = years.count == 1 ? "\(years.lowerBound)" : "\(years.lowerBound)–\(years.upperBound)"
        if let match = Self.agreeingZone(rules, years: years) {
            warnings.append(
                ImportWarning(
                    line: definition.line,
                    template: "time zone '%s' read as %s, whose offsets agree with its VTIMEZONE in %s",
                    tzid, match.name, span))
            return (match.zone, match.name)
        }
        let fixed = Self.fixed(rules.standardOffset)
        warnings.append(
            ImportWarning(
                line: definition.line,
                template:
                    "time zone '%s' approximated as a fixed %s (its standard time): no IANA zone follows its VTIMEZONE rules in %s",
                tzid, ICalendar.offsetText(rules.standardOffset), span))
        return fixed
    }

    /// The IANA zone whose offsets and changes in `years` are the rules' own, preferring the zones
    /// Windows names stand for (Europe/Berlin for the EU rules at +01:00), then by name.
    private static func agreeingZone(_ rules: VTimezoneRules, years: ClosedRange<Int>) -> (
        zone: TimeZone, name: String
    )? {
        let utc = TimeZone(identifier: "UTC")!
        let from = LocalTime.instant(year: years.lowerBound, month: 1, day: 1, in: utc)!
        let to = LocalTime.instant(year: years.upperBound + 1, month: 1, day: 1, in: utc)!
        let wanted = rules.changes(from: from, to: to)
        let preferred = Set(windowsZones.values).sorted()
        let others = TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") && !$0.hasPrefix("Etc/") }.sorted()
        for name in preferred + others {
            guard let zone = TimeZone(identifier: name), zone.secondsFromGMT(for: from) == wanted.initial else {
                continue
            }
            var changes: [(instant: Date, offset: Int)] = []
            var t = from
            while let next = zone.nextDaylightSavingTimeTransition(after: t), next < to,
                changes.count <= wanted.changes.count
            {
                t = next
                let offset = zone.secondsFromGMT(for: next)
                if offset != (changes.last?.offset ?? wanted.initial) { changes.append((next, offset)) }
            }
            if changes.count == wanted.changes.count,
                zip(changes, wanted.changes).allSatisfy({ $0.instant == $1.instant && $0.offset == $1.offset })
            {
                return (zone, name)
            }
        }
        return nil
    }

    /// The offset of a TZID that is one: "UTC+11", "UTC-03:30", "GMT+1" (as written: UTC+11 is
    /// eleven hours ahead, unlike IANA's Etc/GMT-11).
    static func namedOffset(_ tzid: String) -> Int? {
        let upper = tzid.uppercased()
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        let rest = upper.dropFirst(3).filter { $0 != " " }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        var hoursText = digits.first ?? "", minutesText = digits.count > 1 ? digits[1] : ""
        if digits.count == 1, hoursText.count == 4 {
            (hoursText, minutesText) = (hoursText.prefix(2), hoursText.suffix(2))
        }
        guard digits.count <= 2, (1...2).contains(hoursText.count), minutesText.isEmpty || minutesText.count == 2,
            let hours = Int(hoursText), hours <= 14, let minutes = minutesText.isEmpty ? 0 : Int(minutesText),
            minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// An IANA name as such, or at the end of a prefixed TZID such as
    /// `/mozilla.org/20070129_1/Europe/Warsaw` or `/freeassociation.sourceforge.net/Tzfile/Europe/Warsaw`.
    private static func iana(_ raw: String) -> (zone: TimeZone, name: String)? {
        let tzid = raw.trimmingWhitespace()
        guard !tzid.isEmpty else { return nil }
        if let zone = TimeZone(identifier: tzid) { return (zone, tzid) }
        let parts = tzid.split(separator: "/")
        for count in [3, 2, 1] where parts.count >= count {
            let name = parts.suffix(count).joined(separator: "/")
            guard name != tzid, count > 1 || name == "UTC" else { continue }
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return nil
    }

    /// A fixed offset: Etc/GMT∓H for whole hours (IANA's inverted sign), else a nameless zone.
    private static func fixed(_ offset: Int) -> (zone: TimeZone, name: String?) {
        let hours = offset / 3600
        if offset % 3600 == 0, (-12...14).contains(hours) {
            let name = hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return (TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC")!, nil)
    }

    /// Windows zone names (Outlook, Exchange) to IANA: every zone of CLDR's windowsZones.xml
    /// ("001" territory), and names Outlook writes that are no Windows zone ID.
    static let windowsZones: [String: String] = [
        "Dateline Standard Time": "Etc/GMT+12",
        "UTC-11": "Etc/GMT+11",
        "Hawaiian Standard Time": "Pacific/Honolulu",
        "Alaskan Standard Time": "America/Anchorage",
        "Pacific Standard Time": "America/Los_Angeles",
        "US Mountain Standard Time": "America/Phoenix",
        "Mountain Standard Time": "America/Denver",
        "Central America Standard Time": "America/Guatemala",
        "Central Standard Time": "America/Chicago",
        "Central Standard Time (Mexico)": "America/Mexico_City",
        "Canada Central Standard Time": "America/Regina",
        "SA Pacific Standard Time": "America/Bogota",
        "Eastern Standard Time": "America/New_York",
        "Atlantic Standard Time": "America/Halifax",
        "Newfoundland Standard Time": "America/St_Johns",
        "Pacific SA Standard Time": "America/Santiago",
        "E. South America Standard Time": "America/Sao_Paulo",
        "Argentina Standard Time": "America/Argentina/Buenos_Aires",
        "SA Eastern Standard Time": "America/Cayenne",
        "UTC": "Etc/UTC",
        "GMT Standard Time": "Europe/London",
        "Greenwich Standard Time": "Atlantic/Reykjavik",
        "W. Europe Standard Time": "Europe/Berlin",
        "Central Europe Standard Time": "Europe/Budapest",
        "Romance Standard Time": "Europe/Paris",
        "Central European Standard Time": "Europe/Warsaw",
        "W. Central Africa Standard Time": "Africa/Lagos",
        "Morocco Standard Time": "Africa/Casablanca",
        "GTB Standard Time": "Europe/Bucharest",
        "FLE Standard Time": "Europe/Kiev",
        "E. Europe Standard Time": "Europe/Chisinau",
        "Kaliningrad Standard Time": "Europe/Kaliningrad",
        "Egypt Standard Time": "Africa/Cairo",
        "South Africa Standard Time": "Africa/Johannesburg",
        "Israel Standard Time": "Asia/Jerusalem",
        "Jordan Standard Time": "Asia/Amman",
        "Turkey Standard Time": "Europe/Istanbul",
        "Belarus Standard Time": "Europe/Minsk",
        "Russian Standard Time": "Europe/Moscow",
        "Arab Standard Time": "Asia/Riyadh",
        "E. Africa Standard Time": "Africa/Nairobi",
        "Iran Standard Time": "Asia/Tehran",
        "Arabian Standard Time": "Asia/Dubai",
        "Pakistan Standard Time": "Asia/Karachi",
        "India Standard Time": "Asia/Kolkata",
        "Nepal Standard Time": "Asia/Kathmandu",
        "SE Asia Standard Time": "Asia/Bangkok",
        "China Standard Time": "Asia/Shanghai",
        "Singapore Standard Time": "Asia/Singapore",
        "Taipei Standard Time": "Asia/Taipei",
        "Tokyo Standard Time": "Asia/Tokyo",
        "Korea Standard Time": "Asia/Seoul",
        "W. Australia Standard Time": "Australia/Perth",
        "Cen. Australia Standard Time": "Australia/Adelaide",
        "E. Australia Standard Time": "Australia/Brisbane",
        "AUS Eastern Standard Time": "Australia/Sydney",
        "Tasmania Standard Time": "Australia/Hobart",
        "Lord Howe Standard Time": "Australia/Lord_Howe",
        "New Zealand Standard Time": "Pacific/Auckland",
        "AUS Central Standard Time": "Australia/Darwin",
        "Afghanistan Standard Time": "Asia/Kabul",
        "Aleutian Standard Time": "America/Adak",
        "Altai Standard Time": "Asia/Barnaul",
        "Arabic Standard Time": "Asia/Baghdad",
        "Astrakhan Standard Time": "Europe/Astrakhan",
        "Aus Central W. Standard Time": "Australia/Eucla",
        "Azerbaijan Standard Time": "Asia/Baku",
        "Azores Standard Time": "Atlantic/Azores",
        "Bahia Standard Time": "America/Bahia",
        "Bangladesh Standard Time": "Asia/Dhaka",
        "Bougainville Standard Time": "Pacific/Bougainville",
        "Cape Verde Standard Time": "Atlantic/Cape_Verde",
        "Caucasus Standard Time": "Asia/Yerevan",
        "Central Asia Standard Time": "Asia/Almaty",
        "Central Brazilian Standard Time": "America/Cuiaba",
        "Central Pacific Standard Time": "Pacific/Guadalcanal",
        "Chatham Islands Standard Time": "Pacific/Chatham",
        "Cuba Standard Time": "America/Havana",
        "Easter Island Standard Time": "Pacific/Easter",
        "Eastern Standard Time (Mexico)": "America/Cancun",
        "Ekaterinburg Standard Time": "Asia/Yekaterinburg",
        "Fiji Standard Time": "Pacific/Fiji",
        "Georgian Standard Time": "Asia/Tbilisi",
        "Greenland Standard Time": "America/Godthab",
        "Haiti Standard Time": "America/Port-au-Prince",
        "Libya Standard Time": "Africa/Tripoli",
        "Line Islands Standard Time": "Pacific/Kiritimati",
        "Magadan Standard Time": "Asia/Magadan",
        "Magallanes Standard Time": "America/Punta_Arenas",
        "Marquesas Standard Time": "Pacific/Marquesas",
        "Mauritius Standard Time": "Indian/Mauritius",
        "Middle East Standard Time": "Asia/Beirut",
        "Montevideo Standard Time": "America/Montevideo",
        "Mountain Standard Time (Mexico)": "America/Chihuahua",
        "Myanmar Standard Time": "Asia/Rangoon",
        "N. Central Asia Standard Time": "Asia/Novosibirsk",
        "Namibia Standard Time": "Africa/Windhoek",
        "Norfolk Standard Time": "Pacific/Norfolk",
        "North Asia East Standard Time": "Asia/Irkutsk",
        "North Asia Standard Time": "Asia/Krasnoyarsk",
        "North Korea Standard Time": "Asia/Pyongyang",
        "Omsk Standard Time": "Asia/Omsk",
        "Pacific Standard Time (Mexico)": "America/Tijuana",
        "Paraguay Standard Time": "America/Asuncion",
        "Qyzylorda Standard Time": "Asia/Qyzylorda",
        "Russia Time Zone 10": "Asia/Srednekolymsk",
        "Russia Time Zone 11": "Asia/Kamchatka",
        "Russia Time Zone 3": "Europe/Samara",
        "SA Western Standard Time": "America/La_Paz",
        "Saint Pierre Standard Time": "America/Miquelon",
        "Sakhalin Standard Time": "Asia/Sakhalin",
        "Samoa Standard Time": "Pacific/Apia",
        "Sao Tome Standard Time": "Africa/Sao_Tome",
        "Saratov Standard Time": "Europe/Saratov",
        "South Sudan Standard Time": "Africa/Juba",
        "Sri Lanka Standard Time": "Asia/Colombo",
        "Sudan Standard Time": "Africa/Khartoum",
        "Syria Standard Time": "Asia/Damascus",
        "Tocantins Standard Time": "America/Araguaina",
        "Tomsk Standard Time": "Asia/Tomsk",
        "Tonga Standard Time": "Pacific/Tongatapu",
        "Transbaikal Standard Time": "Asia/Chita",
        "Turks And Caicos Standard Time": "America/Grand_Turk",
        "US Eastern Standard Time": "America/Indianapolis",
        "UTC+12": "Etc/GMT-12",
        "UTC+13": "Etc/GMT-13",
        "UTC-02": "Etc/GMT+2",
        "UTC-08": "Etc/GMT+8",
        "UTC-09": "Etc/GMT+9",
        "Ulaanbaatar Standard Time": "Asia/Ulaanbaatar",
        "Venezuela Standard Time": "America/Caracas",
        "Vladivostok Standard Time": "Asia/Vladivostok",
        "Volgograd Standard Time": "Europe/Volgograd",
        "W. Mongolia Standard Time": "Asia/Hovd",
        "West Asia Standard Time": "Asia/Tashkent",
        "West Bank Standard Time": "Asia/Hebron",
        "West Pacific Standard Time": "Pacific/Port_Moresby",
        "Yakutsk Standard Time": "Asia/Yakutsk",
        "Yukon Standard Time": "America/Whitehorse",
        // Not a Windows zone ID but the display name some Outlook exports write as TZID.
        "Western/Central Europe": "Europe/Berlin",
    ]
}
