import BeautyCore
import BeautyProtocol
import Foundation
import Testing

/// The hand-written JSON (the agenda's answer) and the layout `--json` prints it with must be byte for
/// byte what JSONEncoder writes for the same values.
@Suite struct WireJSONTextTests {
    /// Every C0 control, quotes, backslashes, slashes, DEL, non-ASCII and a bidi control.
    static let awkward =
        String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar($0)! })) + "\"\\/ \u{7F} zażółć 日本 \u{202E} 🙂"

    static func entry(_ n: Int, everything: Bool) -> AgendaEntry {
        var a = Appointment(
            title: everything ? "Haircut \(Self.awkward)" : "Brows",
            start: Date(timeIntervalSince1970: 1_800_000_000 + Double(n) * 900.25),
            durationSeconds: 3600)
        a.id = Int64(n)
        a.allDay = n % 2 == 0
        if everything {
            a.status = .cancelled
            a.category = "hair/colour"
            a.color = "#ff00aa"
            a.address = "ul. Piękna 1, Warszawa\nII piętro"
            a.price = Money(cents: 12_050, currency: "PLN")
        }
        var entry = AgendaEntry(appointment: a, contactName: everything ? "Salon \"Anna\"" : nil)
        if n == 3 {
            entry.kind = .medication
            entry.medicationID = -7
        }
        return entry
    }

    static let results: [AgendaResult] = [
        AgendaResult(
            from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4_102_444_800), total: 0, entries: []),
        AgendaResult(
            from: Date(timeIntervalSince1970: -86_400.5), to: Date(timeIntervalSince1970: 1_800_000_000.125), total: 5,
            entries: (0..<5).map { entry($0, everything: $0 % 2 == 1) },
            nextFrom: Date(timeIntervalSince1970: 1_800_000_900)),
    ]

    static func encoded(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let encoder = WireJSON.encoder()
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        return [UInt8](try encoder.encode(value))
    }

    @Test("the agenda's answer is written as JSONEncoder writes it")
    func agendaAsJSONEncoder() throws {
        for result in Self.results {
            var json = WireJSONText()
            result.write(to: &json)
            #expect(json.bytes == (try Self.encoded(result)), "\(String(decoding: json.bytes, as: UTF8.self))")
        }
    }

    @Test("the answer line around it is JSONEncoder's RPCSuccess, with a number, a string or no id")
    func envelopeAsJSONEncoder() throws {
        for id in [RPCID.number(42), .number(-1), .string("a \"quoted\" id\n"), nil] {
            let line = WireJSON.success(id: id, result: Self.results[1])
            #expect(
                [UInt8](line) == (try Self.encoded(RPCSuccess(id: id, result: Self.results[1]))),
                "\(String(describing: id))")
        }
    }

    @Test(
        "the export's answer, CRLF line ends and every awkward character included, is written as JSONEncoder writes it")
    func exportAsJSONEncoder() throws {
        for ics in [
            "", "BEGIN:VCALENDAR\r\nSUMMARY:\(Self.awkward)\r\nEND:VCALENDAR\r\n",
            String(repeating: "X-LONG:ab\\,c\r\n", count: 5000),
        ] {
            let result = AppointmentExportICSResult(ics: ics, count: 7)
            var json = WireJSONText()
            result.write(to: &json)
            #expect(json.bytes == (try Self.encoded(result)))
        }
    }

    @Test("a string member's value is decoded as JSONDecoder decodes it; a malformed literal gives nil")
    func stringValueAsJSONDecoder() throws {
        let texts = [
            "", Self.awkward, "CRLF\r\nends\r\n", "a\\u0041 not an escape", "\u{1F642}\u{10FFFF} and \u{E000}",
        ]
        for text in texts {
            let literal = try Self.encoded([text]).dropFirst().dropLast()
            #expect(WireJSON.stringValue(literal).map { String(decoding: $0, as: UTF8.self) } == text)
        }
        let escapes = Array(#""\/ \" \\ \b\f\n\r\t \u0041\u00e9\u202E \ud83d\ude42""#.utf8)
        let decoded = try JSONDecoder().decode(String.self, from: Data(escapes))
        #expect(WireJSON.stringValue(escapes[...]).map { String(decoding: $0, as: UTF8.self) } == decoded)
        for broken in [
            #""\x""#, #""\u12""#, #""\u+123""#, #""\ud83d alone""#, #""\ude42""#, "\"raw \n newline\"", #""unclosed"#,
            #"""#, #""\""#,
        ] {
            #expect(WireJSON.stringValue(Array(broken.utf8)[...]) == nil, "\(broken.debugDescription)")
        }
    }

    @Test("an import chunk's request, every appointment field set or left out, is written as JSONEncoder writes it")
    func importChunkAsJSONEncoder() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000.25)
        let full = Appointment(
            id: 42, title: "Haircut \(Self.awkward)", start: at, durationSeconds: 5400, allDay: true,
            address: "ul. Piękna 1\nII",
            notes: "a\tb", contactID: -3, category: "hair/cut", color: "#ff00aa",
            price: Money(cents: -4550, currency: "PLN"),
            status: .cancelled, reminders: [.before(3600), .at(at), Reminder(beforeSeconds: 60, at: at)],
            timeZone: "Europe/Warsaw",
            recurrence: AppointmentRecurrence(
                rule: "FREQ=WEEKLY;COUNT=3", moreRules: ["FREQ=DAILY"], exdates: [at], rdates: [at, at],
                changed: [at], startWall: "2027-03-28T02:30:00"),
            repeatAfterDoneSeconds: 86_400, uid: "u-1@x", seriesID: 7, recurrenceID: at.addingTimeInterval(-0.5),
            tags: ["a", "b,c"], extraProperties: ["X-A:1"], createdAt: at, updatedAt: at.addingTimeInterval(1))
        let bare = Appointment(
            title: "Brows", start: Date(timeIntervalSince1970: -86_400), createdAt: at, updatedAt: at)
        var emptyLists = full
        emptyLists.recurrence = AppointmentRecurrence(rule: "FREQ=DAILY")
        emptyLists.reminders = []
        let chunks = [
            AppointmentImportChunkParams(
                stage: "s-1", firstIndex: 2000, appointments: [full, bare, emptyLists],
                contactNames: ["Salon \"Anna\"", nil, "B"], contactPhones: [nil, "+48 600", nil]),
            AppointmentImportChunkParams(stage: "s\n2", firstIndex: 0, appointments: [], contactNames: []),
        ]
        for chunk in chunks {
            for id in [RPCID.number(7), .string("seven")] {
                let line = WireJSON.request(id: id, method: "appointment.importChunk", params: chunk)
                let expected = try Self.encoded(RPCRequest(id: id, method: "appointment.importChunk", params: chunk))
                #expect(
                    [UInt8](line) == expected,
                    "\(String(decoding: line, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
            }
        }
    }

    @Test("compact JSON is laid out as .prettyPrinted lays it out, empty lists and objects included")
    func prettyAsJSONEncoder() throws {
        struct Nested: Encodable {
            var empty: [Int] = []
            var none: [String: Int] = [:]
            var lists = [[1, 2], [], [3]]
            var objects = ["k": ["z": 1], "e": [:]]
            var text = WireJSONTextTests.awkward + " : , { } [ ]"
            var number = -1.5
            var flags = [true, false]
        }
        for result in Self.results {
            #expect(WireJSON.prettyPrinted(try Self.encoded(result)) == (try Self.encoded(result, pretty: true)))
        }
        let laidOut = WireJSON.prettyPrinted(try Self.encoded(Nested()))
        #expect(laidOut == (try Self.encoded(Nested(), pretty: true)), "\(String(decoding: laidOut, as: UTF8.self))")
        #expect(WireJSON.prettyPrinted(Array("{}".utf8)) == (try Self.encoded([String: Int](), pretty: true)))
    }

    @Test("a top-level member is found without decoding; a missing one or a cut-short text gives nil")
    func memberOfAnAnswer() throws {
        let line = [UInt8](WireJSON.success(id: .string("result"), result: Self.results[1]))
        let range = try #require(WireJSON.member("result", in: line))
        #expect(Array(line[range]) == (try Self.encoded(Self.results[1])))
        let spaced = Array(#" { "id" : "x,}]" , "n" : -12.5e3 , "flag":true, "result" : [ 1 , {"a":"}"} ] } "#.utf8)
        #expect(
            WireJSON.member("result", in: spaced).map { String(decoding: spaced[$0], as: UTF8.self) }
                == #"[ 1 , {"a":"}"} ]"#)
        #expect(WireJSON.member("flag", in: spaced).map { String(decoding: spaced[$0], as: UTF8.self) } == "true")
        let failure = Array(#"{"error":{"code":-32601,"message":"unknown method"},"id":1,"jsonrpc":"2.0"}"#.utf8)
        #expect(WireJSON.member("result", in: failure) == nil)
        #expect(WireJSON.member("result", in: Array(line.dropLast(2))) == nil)
        #expect(WireJSON.member("result", in: Array("[1]".utf8)) == nil)
    }
}
