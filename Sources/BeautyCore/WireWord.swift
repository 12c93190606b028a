/// A value the wire carries as one string: read back through `init(_:)`, which keeps a word it does
/// not know (so the receiver can refuse it with its own message), and written as `text`.
public protocol WireWord: Codable {
    init(_ text: String)
    /// The word on the wire.
    var text: String { get }
}

extension WireWord {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
