/// A problem in a file the user gave (a calendar, a water export), with the 1-based line where it is.
public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
