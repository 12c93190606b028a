import BeautyCore
import BeautyProtocol
import Foundation
import Testing

/// Values with a closed set are enums on the wire, written as the same JSON as before: a list's
/// `sort` and an error's `code`.
@Suite("closed sets as types on the wire")
struct WireTypesTests {
    @Test(
        "sort reads a key in any case with spaces around it, keeps another word for the list to refuse, writes the key")
    func sortKey() throws {
        func sort(_ json: String) throws -> ListSortChoice? {
            try WireJSON.decoder().decode(ListOrderParams.self, from: Data(json.utf8)).sort
        }
        #expect(try sort(#"{"sort":" Price "}"#) == .key(.price))
        #expect(try sort(#"{"sort":"time"}"#) == .key(.time))
        #expect(try sort(#"{"sort":"size"}"#) == .unknown("size"))
        #expect(try sort(#"{}"#) == nil)
        #expect(throws: DecodingError.self) { try sort(#"{"sort":5}"#) }
        let written = try WireJSON.encoder().encode(ListOrderParams(sort: .key(.title), reverse: true))
        #expect(String(decoding: written, as: UTF8.self) == #"{"reverse":true,"sort":"title"}"#)
        #expect(
            throws: ValidationError(field: "sort", "'size' is not one of title (what this list can be sorted by)")
        ) {
            try ListSort.sorted(["a"], sort: try sort(#"{"sort":"size"}"#), reverse: nil, supported: [.title]) {
                _, _ in .missing
            }
        }
    }

    @Test("an error's code is its number on the wire")
    func errorCode() throws {
        let line = #"{"code":-32004,"message":"no appointment with id 9"}"#
        let error = try WireJSON.decoder().decode(RPCErrorObject.self, from: Data(line.utf8))
        #expect(error.code == .notFound)
        #expect(String(decoding: try WireJSON.encoder().encode(error), as: UTF8.self) == line)
        #expect(RPCErrorCode.allCases.map(\.rawValue).sorted().first == -32700)
        // A code from a newer beautyd still decodes: the client shows the daemon's message.
        let unknown = #"{"code":-32099,"message":"refused: a newer rule"}"#
        let fromNewer = try WireJSON.decoder().decode(RPCErrorObject.self, from: Data(unknown.utf8))
        #expect(fromNewer.code.rawValue == -32099 && fromNewer.message == "refused: a newer rule")

        let missing = #"{"code":-32004,"data":{"id":9,"kind":"budget entry"},"message":"no budget entry with id 9"}"#
        let decoded = try WireJSON.decoder().decode(RPCErrorObject.self, from: Data(missing.utf8))
        #expect(decoded.data?.kind == .budgetEntry)
        #expect(String(decoding: try WireJSON.encoder().encode(decoded), as: UTF8.self) == missing)
        let newer = #"{"kind":"sync account"}"#
        #expect(try WireJSON.decoder().decode(RPCErrorData.self, from: Data(newer.utf8)).kind == .other("sync account"))
    }

    @Test("a history entry's kind is dose or reminder, written as before")
    func historyKind() throws {
        let line = #"{"id":3,"kind":"reminder","scheduledAt":"2030-03-04T09:00:00Z","state":"fired","title":"Haircut"}"#
        let entry = try WireJSON.decoder().decode(HistoryEntry.self, from: Data(line.utf8))
        #expect(entry.kind == .reminder)
        #expect(String(decoding: try WireJSON.encoder().encode(entry), as: UTF8.self) == line)
        #expect(throws: DecodingError.self) {
            try WireJSON.decoder().decode(
                HistoryEntry.self, from: Data(line.replacingOccurrences(of: "reminder", with: "walk").utf8))
        }
    }

    @Test("the agenda's status filter reads a status or a dose state in any case, keeps another word as sent")
    func agendaStatus() throws {
        func status(_ json: String) throws -> [AgendaStatus]? {
            try WireJSON.decoder().decode(AgendaParams.self, from: Data(json.utf8)).status
        }
        #expect(
            try status(#"{"status":["Done "," missed","finished"]}"#) == [
                .appointment(.done), .dose(.missed), .unknown("finished"),
            ])
        var params = AgendaParams()
        params.status = [.dose(.taken), .appointment(.cancelled)]
        #expect(
            String(decoding: try WireJSON.encoder().encode(params), as: UTF8.self)
                == #"{"status":["taken","cancelled"]}"#)
        #expect(AgendaStatus.names.first == "cancelled" && AgendaStatus.names.count == 9)
    }
}
