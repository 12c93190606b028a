import Foundation

// TZID values resolved to zones: IANA names, Windows names, VTIMEZONE blocks.

/// Turns TZID values into zones, once per name per calendar.
struct ZoneResolver {
    private var definitions: [String: ICalComponent] = [:]
    private var cache: [String: (zone: TimeZone, name: String?)] = [:]

    init(calendar: ICalComponent) {
        for child in calendar.children where child.name == "VTIMEZONE" {
            if let tzid = child.first("TZID")?.value.trimmingCharacters(in: .whitespaces), definitions[tzid] == nil {
                definitions[tzid] = child
            }
        }
    }

    /// The zone for a TZID and the IANA name to keep for it (nil for a bare fixed offset that
    /// has no Etc/GMT name). `line` is the line of the property that uses the TZID.
    mutating func zone(_ rawTZID: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        let tzid = rawTZID.trimmingCharacters(in: .whitespaces)
        if let known = cache[tzid] { return known }
        let resolved = try resolve(tzid, line: line)
        cache[tzid] = resolved
        return resolved
    }

    private func resolve(_ tzid: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        if let iana = Self.iana(tzid) { return (iana.zone, iana.name) }
        if let name = Self.windowsZones[tzid], let zone = TimeZone(identifier: name) { return (zone, name) }
        guard let definition = definitions[tzid] else {
            throw ICalendarError(line: line, "unknown time zone '\(tzid)': not an IANA name such as Europe/Warsaw, and the file has no VTIMEZONE for it")
        }
        // libical (Thunderbird, Evolution) names the IANA zone of its VTIMEZONEs.
        if let location = definition.first("X-LIC-LOCATION"), let iana = Self.iana(location.value) {
            return (iana.zone, iana.name)
        }
        let standard = definition.children.filter { $0.name == "STANDARD" }
        if !standard.isEmpty, !definition.children.contains(where: { $0.name == "DAYLIGHT" }) {
            var offsets = Set<Int>()
            for part in standard {
                guard let to = part.first("TZOFFSETTO") else {
                    throw ICalendarError(line: part.line, "STANDARD of time zone '\(tzid)' has no TZOFFSETTO")
                }
                guard let offset = ICalendar.utcOffset(to.value) else {
                    throw ICalendarError(line: to.line, "TZOFFSETTO '\(to.value)' is not an offset such as +0100")
                }
                offsets.insert(offset)
            }
            if offsets.count == 1, let offset = offsets.first {
                return Self.fixed(offset)
            }
        }
        throw ICalendarError(line: line, "time zone '\(tzid)' is not an IANA or known Windows name, and its VTIMEZONE (line \(definition.line)) has rules beautyd cannot follow; use an IANA name such as Europe/Warsaw")
    }

    /// An IANA name as such, or at the end of a prefixed TZID such as
    /// `/mozilla.org/20070129_1/Europe/Warsaw` or `/freeassociation.sourceforge.net/Tzfile/Europe/Warsaw`.
    private static func iana(_ raw: String) -> (zone: TimeZone, name: String)? {
        let tzid = raw.trimmingCharacters(in: .whitespaces)
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

    /// Common Windows zone names (Outlook, Exchange) to IANA, after CLDR's windowsZones.xml
    /// ("001" territory). Not every Windows zone: the rest need an IANA TZID or a VTIMEZONE
    /// with one fixed offset.
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
    ]
}
