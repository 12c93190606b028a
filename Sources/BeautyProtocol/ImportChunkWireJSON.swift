import BeautyCore
import Foundation

/// An import chunk's request written by hand (`WireJSONText`): beautyctl sends a hundred thousand
/// appointments in an import, and JSONEncoder took a third of its time. Members in sorted key order,
/// nil optionals and the lists `Appointment.encode` leaves out when empty left out, as
/// `WireJSON.encoder()` writes them; tests compare the bytes with JSONEncoder's.
extension AppointmentImportChunkParams: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.open("{")
        json.member("appointments", first: true)
        json.array(appointments) { json, appointment in appointment.write(to: &json) }
        json.member("contactNames")
        json.array(contactNames) { json, name in json.optionalString(name) }
        if let contactPhones {
            json.member("contactPhones")
            json.array(contactPhones) { json, phone in json.optionalString(phone) }
        }
        json.member("firstIndex")
        json.int(firstIndex)
        json.member("stage")
        json.string(stage)
        json.close("}")
    }

    public var estimatedJSONBytes: Int { 128 + appointments.count * 400 }
}

extension Appointment: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.beginObject()
        json.add("address", address) { $0.string($1) }
        json.add("allDay", allDay) { $0.bool($1) }
        json.add("category", category) { $0.string($1) }
        json.add("color", color) { $0.string($1) }
        json.add("contactID", contactID) { $0.int($1) }
        json.add("createdAt", createdAt) { $0.instant($1) }
        json.add("durationSeconds", durationSeconds) { $0.int($1) }
        json.add("extraProperties", extraProperties.isEmpty ? nil : extraProperties) { $0.array($1) { $0.string($1) } }
        json.add("id", id) { $0.int($1) }
        json.add("notes", notes) { $0.string($1) }
        json.add("price", price) { json, price in
            json.beginObject()
            json.add("cents", price.cents) { $0.int($1) }
            json.add("currency", price.currency) { $0.string($1) }
            json.endObject()
        }
        json.add("recurrence", recurrence) { json, recurrence in
            json.beginObject()
            json.add("changed", recurrence.changed.isEmpty ? nil : recurrence.changed) {
                $0.array($1) { $0.instant($1) }
            }
            json.add("exdates", recurrence.exdates) { $0.array($1) { $0.instant($1) } }
            json.add("moreRules", recurrence.moreRules.isEmpty ? nil : recurrence.moreRules) {
                $0.array($1) { $0.string($1) }
            }
            json.add("rdates", recurrence.rdates) { $0.array($1) { $0.instant($1) } }
            json.add("rule", recurrence.rule) { $0.string($1) }
            json.add("startWall", recurrence.startWall) { $0.string($1) }
            json.endObject()
        }
        json.add("recurrenceID", recurrenceID) { $0.instant($1) }
        json.add("reminders", reminders) { json, reminders in
            json.array(reminders) { json, reminder in
                json.beginObject()
                json.add("at", reminder.at) { $0.instant($1) }
                json.add("beforeSeconds", reminder.beforeSeconds) { $0.int($1) }
                json.endObject()
            }
        }
        json.add("repeatAfterDoneSeconds", repeatAfterDoneSeconds) { $0.int($1) }
        json.add("seriesID", seriesID) { $0.int($1) }
        json.add("start", start) { $0.instant($1) }
        json.add("status", status.rawValue) { $0.string($1) }
        json.add("tags", tags.isEmpty ? nil : tags) { $0.array($1) { $0.string($1) } }
        json.add("timeZone", timeZone) { $0.string($1) }
        json.add("title", title) { $0.string($1) }
        json.add("uid", uid) { $0.string($1) }
        json.add("updatedAt", updatedAt) { $0.instant($1) }
        json.endObject()
    }

    public var estimatedJSONBytes: Int { 400 }
}

extension WireJSONText {
    public mutating func array<Element>(_ elements: [Element], _ write: (inout WireJSONText, Element) -> Void) {
        open("[")
        for (index, element) in elements.enumerated() {
            self.element(first: index == 0)
            write(&self, element)
        }
        close("]")
    }

    /// A string, or null.
    public mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }
}

extension WireJSON {
    /// A request line `{"id":…,"jsonrpc":"2.0","method":…,"params":…}` around params that write
    /// themselves: the bytes JSONEncoder gives for `RPCRequest(id:method:params:)`.
    public static func request(id: RPCID, method: String, params: some WireJSONWritable) -> Data {
        var json = WireJSONText(capacity: params.estimatedJSONBytes + 96)
        json.open("{")
        json.member("id", first: true)
        switch id {
        case let .number(n): json.int(n)
        case let .string(s): json.string(s)
        }
        json.member("jsonrpc")
        json.string("2.0")
        json.member("method")
        json.string(method)
        json.member("params")
        params.write(to: &json)
        json.close("}")
        return Data(json.bytes)
    }
}
