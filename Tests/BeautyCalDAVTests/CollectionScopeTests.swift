import BeautyCalDAV
import Foundation
import Testing

/// Which hrefs a server may point beautyd at: its own origin and inside the calendar followed.
@Suite struct CollectionScopeTests {
    let calendar = URL(string: "https://dav.example.com/anna/cal/")!

    @Test("inside the calendar: paths, whole URLs, the default port spelled out, escapes that differ")
    func membersAreAccepted() {
        for href in [
            "/anna/cal/a.ics", "a.ics", "https://dav.example.com/anna/cal/a.ics",
            "https://DAV.example.com:443/anna/cal/a.ics",
            "/anna/%63al/a%40b.ics", "/anna/cal/./a.ics", "/anna/cal/sub/../a.ics",
        ] {
            #expect(CollectionScope.member(href, of: calendar) != nil, "\(href)")
        }
    }

    @Test(
        "another host, port or scheme, the calendar itself, dot segments out of it (also escaped), encoded slashes: refused"
    )
    func outsidersAreRefused() {
        for href in [
            "https://evil.example.com/anna/cal/a.ics", "https://dav.example.com:8443/anna/cal/a.ics",
            "http://dav.example.com/anna/cal/a.ics", "/anna/cal/", "/anna/cal", "/anna/other/a.ics",
            "/anna/cal/../other/a.ics", "/anna/cal/%2e%2e/other/a.ics", "/anna/cal/%2E%2E/other/a.ics",
            "/anna/cal/..%2Fother%2Fa.ics", "/anna/cal/..%5Cother.ics", "//evil.example.com/anna/cal/a.ics",
            "https://user:pw@dav.example.com/anna/cal/a.ics", "/anna/calendar/a.ics",
        ] {
            #expect(CollectionScope.member(href, of: calendar) == nil, "\(href)")
        }
    }

    @Test func originsCompareSchemeHostAndPort() {
        #expect(CollectionScope.sameOrigin(URL(string: "http://127.0.0.1/x")!, URL(string: "http://127.0.0.1:80/y")!))
        #expect(
            !CollectionScope.sameOrigin(URL(string: "http://127.0.0.1:5232/")!, URL(string: "http://127.0.0.2:5232/")!))
        #expect(
            !CollectionScope.sameOrigin(URL(string: "http://127.0.0.1:5232/")!, URL(string: "http://127.0.0.1:9002/")!))
        #expect(
            !CollectionScope.sameOrigin(
                URL(string: "https://dav.example.com/")!, URL(string: "http://dav.example.com/")!))
    }
}
