import Foundation

/// The XML bodies the client sends: PROPFIND, REPORT and MKCALENDAR with the DAV:, CalDAV and
/// calendarserver.org (getctag) namespaces.
enum DAVRequestBodies {
    private static let header = #"<?xml version="1.0" encoding="utf-8"?>"#
    private static let namespaces =
        #"xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/""#

    /// What a `CalDAVCalendar` holds.
    static let calendar = propfind([
        "d:resourcetype", "d:displayname", "cs:getctag", "d:sync-token", "d:supported-report-set",
        "c:supported-calendar-component-set",
    ])

    /// The first URL of discovery may be a calendar, a principal (RFC 5397 current-user-principal) or
    /// hold the home (RFC 4791 calendar-home-set): one PROPFIND asks for all of it.
    static let calendarAndPrincipal = propfind([
        "d:resourcetype", "d:displayname", "cs:getctag", "d:sync-token", "d:supported-report-set",
        "c:supported-calendar-component-set", "d:current-user-principal", "c:calendar-home-set",
    ])

    static let etags = propfind(["d:resourcetype", "d:getetag"])

    private static func propfind(_ properties: [String]) -> String {
        "\(header)<d:propfind \(namespaces)><d:prop>" + properties.map { "<\($0)/>" }.joined()
            + "</d:prop></d:propfind>"
    }

    /// RFC 6578 §3.2: an empty token asks for everything; level 1 is the calendar's members.
    static func syncCollection(token: String?) -> String {
        "\(header)<d:sync-collection \(namespaces)><d:sync-token>\(xmlEscaped(token ?? ""))</d:sync-token>"
            + "<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
    }

    /// RFC 4791 §7.9.
    static func multiget(hrefs: some Sequence<String>) -> String {
        "\(header)<c:calendar-multiget \(namespaces)><d:prop><d:getetag/><c:calendar-data/></d:prop>"
            + hrefs.map { "<d:href>\(xmlEscaped($0))</d:href>" }.joined() + "</c:calendar-multiget>"
    }

    /// RFC 4791 §5.3.1: a calendar for `components` (VEVENT, VTODO), with its name.
    static func makeCalendar(named name: String, components: [CalendarComponent] = [.event]) -> String {
        "\(header)<c:mkcalendar \(namespaces)><d:set><d:prop><d:displayname>\(xmlEscaped(name))</d:displayname>"
            + "<c:supported-calendar-component-set>"
            + components.map { #"<c:comp name=""# + $0.rawValue + #""/>"# }.joined()
            + "</c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>"
    }
}
