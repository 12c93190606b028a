import BeautyCalDAV
import BeautyTestSupport
import Foundation
import Testing

/// The client against a loopback server that answers what a hostile or merely huge calendar would.
@Suite struct HostileServerTests {
    private func client(_ server: HostileCalDAVServer) throws -> CalDAVClient {
        let credentials = try PasswordFileCredentials(user: "u", passwordFile: server.passwordFile)
        return try CalDAVClient(account: CalDAVAccount(url: server.calendarURL, credentials: credentials))
    }

    @Test func anAnswerNested50000DeepIsRefusedWithItsReason() async throws {
        let server = try await HostileCalDAVServer.start(.init(nestedXML: 50_000))
        let client = try client(server)
        await #expect(throws: CalDAVError.malformed("the XML answer nests elements more than 64 deep")) {
            _ = try await client.calendar(at: server.calendarURL)
        }
        await #expect(throws: CalDAVError.malformed("the XML answer nests elements more than 64 deep")) {
            _ = try await client.syncCollection(server.calendarURL, token: nil)
        }
        server.stop()
    }

    @Test func aListingOf70000ResourcesAboveLibxml2sTenMegabytesIsRead() async throws {
        let server = try await HostileCalDAVServer.start(.init(listedExtra: 70_000))
        let changes = try await client(server).syncCollection(server.calendarURL, token: nil)
        #expect(changes.changed.count == 70_000)
        #expect(changes.changed.last?.href == "/cal/extra-69999.ics")
        server.stop()
    }

    @Test func oneEventOf13MegabytesIsRead() async throws {
        let server = try await HostileCalDAVServer.start()
        let description = String(repeating: "long notes ", count: 13 << 20 / 11)
        let ics =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\nBEGIN:VEVENT\r\nUID:big@hostile\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20270101T100000Z\r\nSUMMARY:Big\r\nDESCRIPTION:\(description)\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        try await server.set(.init(events: ["big.ics": ics]))
        let resources = try await client(server).fetch(server.calendarURL, hrefs: ["/cal/big.ics"])
        #expect(resources.count == 1)
        #expect(resources.first?.ics.utf8.count == ics.utf8.count)
        server.stop()
    }
}
