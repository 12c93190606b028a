import Foundation

/// The agenda's answer written by hand (`WireJSONText`): a full-range agenda has a hundred thousand
/// entries. Members in sorted key order, nil optionals left out, as `WireJSON.encoder()` writes them.
extension AgendaResult: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.open("{")
        json.member("entries", first: true)
        json.open("[")
        for (index, entry) in entries.enumerated() {
            json.element(first: index == 0)
            entry.write(to: &json)
        }
        json.close("]")
        json.member("from")
        json.instant(from)
        if let nextFrom {
            json.member("nextFrom")
            json.instant(nextFrom)
        }
        json.member("to")
        json.instant(to)
        json.member("total")
        json.int(total)
        json.close("}")
    }

    public var estimatedJSONBytes: Int { 256 + entries.count * 300 }
}

extension AgendaEntry: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.open("{")
        var first = true
        func optional(_ key: String, _ value: String?) {
            guard let value else { return }
            json.member(key, first: first)
            json.string(value)
            first = false
        }
        optional("address", address)
        json.member("allDay", first: first)
        json.bool(allDay)
        first = false
        optional("category", category)
        optional("color", color)
        optional("contactName", contactName)
        json.member("end")
        json.instant(end)
        json.member("id")
        json.int(id)
        json.member("kind")
        json.string(kind.rawValue)
        if let medicationID {
            json.member("medicationID")
            json.int(medicationID)
        }
        json.member("start")
        json.instant(start)
        json.member("status")
        json.string(status)
        json.member("title")
        json.string(title)
        json.close("}")
    }

    public var estimatedJSONBytes: Int { 300 }
}
