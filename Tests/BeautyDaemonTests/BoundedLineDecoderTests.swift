@testable import BeautyDaemon
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

/// The socket's line splitter: requests end at `\n` (a `\r` before it is dropped), a line over the
/// limit is reported once as `.tooLong` and skipped up to its newline, and the next line is intact.
@Suite struct BoundedLineDecoderTests {
    static let limit = 8

    static func line(_ text: String) -> BoundedLineDecoder.Frame { .line(ByteBuffer(string: text)) }

    static func channel() -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(BoundedLineDecoder(maximumLength: limit)))
    }

    /// NIO's verifier feeds every input whole, a byte at a time (so an over-long line passes the limit
    /// before its newline comes) and all of them in one buffer, and checks nothing is left over.
    @Test("lines come out the same however the bytes are split: whole, byte by byte, all at once")
    func verifiedAgainstEverySplit() throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [
                ("status\n", [Self.line("status")]),
                ("\n", [Self.line("")]),
                ("crlf\r\n", [Self.line("crlf")]),
                ("a\nb\n", [Self.line("a"), Self.line("b")]),
                // At the limit a line is a request; one byte more and it is refused, its `\r` counted.
                ("12345678\n", [Self.line("12345678")]),
                ("123456789\n", [.tooLong]),
                ("1234567\r\n", [Self.line("1234567")]),
                ("12345678\r\n", [.tooLong]),
                (String(repeating: "x", count: 100) + "\n", [.tooLong]),
                ("123456789\nnext\n", [.tooLong, Self.line("next")]),
            ],
            decoderFactory: { BoundedLineDecoder(maximumLength: Self.limit) })
    }

    @Test("a line past the limit is refused at once, before its newline, and only once however long it gets")
    func tooLongIsReportedOnceAsItPassesTheLimit() throws {
        let channel = Self.channel()
        try channel.writeInbound(ByteBuffer(string: "12345678"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == nil)
        try channel.writeInbound(ByteBuffer(string: "9"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == .tooLong)
        for _ in 0..<100 { try channel.writeInbound(ByteBuffer(string: "more bytes of the same line")) }
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == nil)
        try channel.writeInbound(ByteBuffer(string: "end\nnext\n"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == Self.line("next"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == nil)
        #expect(try channel.finish().isClean)
    }

    @Test("at EOF a last line without its newline is still a request, and an over-long one is not sent on")
    func lastLineAtEndOfInput() throws {
        let channel = Self.channel()
        try channel.writeInbound(ByteBuffer(string: "first\nlast"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == Self.line("first"))
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == nil)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(try channel.readInbound(as: BoundedLineDecoder.Frame.self) == Self.line("last"))

        let overLong = Self.channel()
        try overLong.writeInbound(ByteBuffer(string: "ok\n" + String(repeating: "x", count: 20)))
        #expect(try overLong.readInbound(as: BoundedLineDecoder.Frame.self) == Self.line("ok"))
        #expect(try overLong.readInbound(as: BoundedLineDecoder.Frame.self) == .tooLong)
        overLong.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(try overLong.readInbound(as: BoundedLineDecoder.Frame.self) == nil)
    }
}
