import Foundation

/// The agenda's answer written by hand (`WireJSONText`): a full-range agenda has a hundred thousand
/// entries. Members in sorted key order, nil optionals left out, as `WireJSON.encoder()` writes them.
extension AgendaResult: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.beginObject()
        json.add("entries", entries) { json, entries in json.array(entries) { json, entry in entry.write(to: &json) } }
        json.add("from", from) { $0.instant($1) }
        json.add("nextFrom", nextFrom) { $0.instant($1) }
        json.add("to", to) { $0.instant($1) }
        json.add("total", total) { $0.int($1) }
        json.endObject()
    }

    public var estimatedJSONBytes: Int { 256 + entries.count * 300 }
}

extension AgendaEntry: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.beginObject()
        json.add("address", address) { $0.string($1) }
        json.add("allDay", allDay) { $0.bool($1) }
        json.add("category", category) { $0.string($1) }
        json.add("color", color) { $0.string($1) }
        json.add("contactName", contactName) { $0.string($1) }
        json.add("end", end) { $0.instant($1) }
        json.add("id", id) { $0.int($1) }
        json.add("kind", kind.rawValue) { $0.string($1) }
        json.add("medicationID", medicationID) { $0.int($1) }
        json.add("price", price) { json, price in
            json.beginObject()
            json.add("cents", price.cents) { $0.int($1) }
            json.add("currency", price.currency) { $0.string($1) }
            json.endObject()
        }
        json.add("start", start) { $0.instant($1) }
        json.add("status", status) { $0.string($1) }
        json.add("title", title) { $0.string($1) }
        json.endObject()
    }

    public var estimatedJSONBytes: Int { 300 }
}
