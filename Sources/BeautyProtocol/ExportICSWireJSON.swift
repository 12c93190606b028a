/// The export's answer written by hand (`WireJSONText`): its text is the size of the whole calendar
/// (22 MB for a hundred thousand appointments), which JSONEncoder escapes a character at a time.
extension AppointmentExportICSResult: WireJSONWritable {
    public func write(to json: inout WireJSONText) {
        json.open("{")
        json.member("count", first: true)
        json.int(count)
        json.member("ics")
        var text = ics
        text.withUTF8 { json.string(utf8: $0) }
        json.close("}")
    }

    public var estimatedJSONBytes: Int { ics.utf8.count + ics.utf8.count / 16 + 64 }
}
