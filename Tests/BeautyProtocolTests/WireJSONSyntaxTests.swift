import BeautyProtocol
import Foundation
import Testing

/// The daemon's syntax check of a request line must say what JSONSerialization says of it.
@Suite struct WireJSONSyntaxTests {
    static let lines: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"status"}"#, " \t\r\n{} ", "[]", "[1,2]", "1", "-0", "-0.5e+3", "1E5", "0.0",
        "true", "null", "\"x\"",
        #"{"a":[{"b":{"c":[null,false,true,-1.25e-10,"\u00e9\ud83d\ude42\/\\\"\b\f\n\r\t"]}}]}"#, #"{"":""}"#,
        #"["é 🙂 \u202e"]"#,
        "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":01}", "01", "-", "1.", ".5",
        "1e", "1e+", "+1",
        "[1 2]", "{\"a\":1}x", "{} {}", "tru", "nul", "True", "\"\t\"", "\"a\nb\"", "\"\\x\"", "\"\\u12\"",
        "\"\\u12G4\"", "\"\\u+123\"",
        "\"\\ud83d\"", "\"\\ud83d\\u0041\"", "\"\\ude42\"", "\"unclosed", "[\"a\"", "{\"a\":}", "NaN", "Infinity",
        "[1]]", "\u{FEFF}{}",
        "{\"x\":1, \"x\":2}", "[1e400]", "-1E+400", "1e-400", "[123456789012345678901234567890]",
        String(repeating: "9", count: 400),
        "[1 , ]", "{\"a\":1 , }", "{,}", "[,]", "[1,,]", "\u{FEFF} 1", "\u{FEFF}\u{FEFF}1",
    ]

    static func serialization(_ line: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) != nil
    }

    @Test("valid and malformed lines get JSONSerialization's verdict")
    func asJSONSerialization() {
        for line in Self.lines {
            let data = Data(line.utf8)
            #expect(WireJSON.isWellFormed(data) == Self.serialization(data), "\(line.debugDescription)")
        }
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x7B, 0x7D, 0x00],
        ] {
            #expect(WireJSON.isWellFormed(Data(bytes)) == Self.serialization(Data(bytes)), "\(bytes)")
        }
    }

    @Test("nesting is refused past JSONSerialization's depth")
    func depth() {
        for depth in [1, 100, 511, 512, 513, 600, 5000] {
            let line = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            #expect(WireJSON.isWellFormed(line) == Self.serialization(line), "\(depth)")
        }
    }
}
