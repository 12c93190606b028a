import BeautyCore
import Foundation

/// Compact JSON written byte by byte, exactly as `WireJSON.encoder()` writes the same values: strings
/// escaped as Foundation's JSONEncoder escapes them (`"`, `\`, `\b \f \n \r \t`, other C0 controls as
/// `\u00xx`, slashes and everything else as they are), instants as `WireJSON.formatInstant`. The caller
/// writes an object's members in sorted key order and leaves out nil optionals, as the encoder does.
///
/// For the few results that carry a hundred thousand entries (a full-range agenda): JSONEncoder
/// spends microseconds on each value there. Tests compare its bytes with JSONEncoder's.
public struct WireJSONText {
    public private(set) var bytes: [UInt8] = []

    /// For each object opened by `beginObject`, innermost last: whether no member was added yet.
    private var awaitingFirstMember: [Bool] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Opens an object whose members `add` writes, with their commas; `endObject` closes it.
    public mutating func beginObject() {
        open("{")
        awaitingFirstMember.append(true)
    }

    public mutating func endObject() {
        awaitingFirstMember.removeLast()
        close("}")
    }

    /// The member `key` of the object `beginObject` opened, written by `write`; none when `value` is nil.
    /// Keys are added in sorted order by the caller, as the encoder sorts them.
    public mutating func add<Value>(_ key: String, _ value: Value?, _ write: (inout WireJSONText, Value) -> Void) {
        guard let value else { return }
        member(key, first: awaitingFirstMember[awaitingFirstMember.count - 1])
        awaitingFirstMember[awaitingFirstMember.count - 1] = false
        write(&self, value)
    }

    /// Opens an object or array; `member` and `element` add the commas.
    public mutating func open(_ bracket: Character) {
        bytes.append(bracket == "{" ? UInt8(ascii: "{") : UInt8(ascii: "["))
    }
    public mutating func close(_ bracket: Character) {
        bytes.append(bracket == "}" ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// `"key":` (with the comma before it unless it is the object's first member).
    public mutating func member(_ key: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The comma before every element of an array but the first.
    public mutating func element(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    public mutating func int<I: BinaryInteger>(_ value: I) { raw(String(value)) }

    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    public mutating func instant(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        RFC3339.write(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// A string given as UTF-8 bytes (an exported .ics): bytes that need no escape are copied in runs.
    public mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
            run = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(byte)
            case 0x08: escape(UInt8(ascii: "b"))
            case 0x0C: escape(UInt8(ascii: "f"))
            case 0x0A: escape(UInt8(ascii: "n"))
            case 0x0D: escape(UInt8(ascii: "r"))
            case 0x09: escape(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ letter: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(letter)
    }
}

/// A result that writes its own JSON with `WireJSONText`, byte for byte what `WireJSON.encoder()`
/// gives for it; the daemon answers it without JSONEncoder.
public protocol WireJSONWritable {
    func write(to json: inout WireJSONText)
    /// About how many bytes it writes (the buffer is reserved once).
    var estimatedJSONBytes: Int { get }
}

extension WireJSON {
    /// A success answer line `{"id":…,"jsonrpc":"2.0","result":…}` around a result that writes itself:
    /// the bytes JSONEncoder gives for `RPCSuccess(id:result:)`.
    public static func success(id: RPCID?, result: some WireJSONWritable) -> Data {
        var json = WireJSONText(capacity: result.estimatedJSONBytes + 64)
        json.open("{")
        if let id {
            json.member("id", first: true)
            switch id {
            case let .number(n): json.int(n)
            case let .string(s): json.string(s)
            }
        }
        json.member("jsonrpc", first: id == nil)
        json.string("2.0")
        json.member("result")
        result.write(to: &json)
        json.close("}")
        return Data(json.bytes)
    }
}
