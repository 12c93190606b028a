/// The params of a method about one record: its id.
public struct IDParams: Codable, Sendable {
    public var id: Int64
    public init(id: Int64) { self.id = id }
}
