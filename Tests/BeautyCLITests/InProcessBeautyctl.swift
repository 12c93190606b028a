@testable import BeautyCLI
@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging

/// beautyctl's commands run in this process against beautyd's parts as `makeDaemon` wires them: an
/// in-memory store, a recording notifier, the real clock and zone. Each command line goes through
/// `BeautyctlCommand.run(arguments:)`, as `beautyctl` runs it; its requests are the JSON-RPC lines the
/// socket would carry, answered by the daemon's request handler; its output and exit code are captured.
final class InProcessBeautyctl: Sendable {
    let daemon: Daemon
    private let running: Task<Void, Error>

    init() throws {
        var config = DaemonConfig()
        config.language = .english
        daemon = try makeDaemon(
            store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: config,
            session: SessionLanguage(.english),
            socket: "in process",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let scheduler = daemon.scheduler
        running = Task { try await scheduler.run() }
    }

    deinit {
        daemon.scheduler.stop()
        running.cancel()
    }

    /// What one command line printed and its exit code.
    struct Run: Sendable, CustomStringConvertible {
        var output: String
        var error: String
        var code: Int32

        var description: String { "exit \(code)\nstdout:\n\(output)\nstderr:\n\(error)" }
    }

    /// Runs `beautyctl ARGUMENTS` on a thread of its own (a command blocks on each answer, which the
    /// daemon works out on the cooperative pool) and returns once it has ended.
    func callAsFunction(_ arguments: String...) async -> Run { await callAsFunction(arguments) }

    func callAsFunction(_ arguments: [String]) async -> Run {
        let caller = InProcessCaller(requests: daemon.requests)
        let captured = CapturedOutput()
        return await withCheckedContinuation { ended in
            Thread {
                let code = GlobalOptions.$caller.withValue(caller) {
                    Output.$sink.withValue(captured.sink) { BeautyctlCommand.run(arguments: arguments) }
                }
                ended.resume(returning: Run(output: captured.output, error: captured.error, code: code))
            }.start()
        }
    }
}

/// The daemon's request handler as beautyctl's client: each request a connection of its own, as
/// `DaemonClient` makes one.
struct InProcessCaller: RPCCalling {
    let requests: RequestHandler

    func call<P, R>(_ rpc: RPC<P, R>, _ params: P, waiting: Bool) throws -> R {
        try session().call(rpc, params)
    }

    func resultJSON<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> [UInt8] {
        let connection = InProcessConnection(requests: requests)
        let session = DaemonSession(connection: connection)
        try session.send(try session.line(rpc, params))
        return try DaemonClient.resultBytes([UInt8](try connection.readLine()), as: R.self)
    }

    func session() throws -> DaemonSession { DaemonSession(connection: InProcessConnection(requests: requests)) }

    func watch(_ body: (DaemonEvent, Data) -> Void) throws {
        throw CLIFailure(.unreachable, "beautyctl watch is not served in process")
    }
}

/// One connection to the request handler: each line sent is answered before `send` returns, and the
/// answers are read back in order, made safe to print as the socket's are.
final class InProcessConnection: LineConnection, @unchecked Sendable {
    private static let numbers = TestCounter()
    private var requests: RequestHandler
    private var answers: [Data] = []

    init(requests: RequestHandler) {
        self.requests = requests
        self.requests.connection = UInt64(Self.numbers.next())
    }

    func send(_ data: Data) throws {
        let requests = self.requests
        let outcome = Box<RequestHandler.Outcome>()
        let answered = DispatchSemaphore(value: 0)
        Task {
            outcome.value = await requests.handle(line: data)
            answered.signal()
        }
        answered.wait()
        switch outcome.value {
        case let .reply(line?): answers.append(Data(ServerText.sanitize([UInt8](line))))
        case let .subscribe(ack): answers.append(ack)
        case .reply(nil), nil: break
        }
    }

    func readLine() throws -> Data {
        guard !answers.isEmpty else { throw CLIFailure(.unreachable, "no answer in process") }
        return answers.removeFirst()
    }

    func close() { requests.connectionClosed() }
}

/// What a command wrote to standard output and standard error.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    var sink: OutputSink {
        OutputSink(
            output: { data in self.lock.withLock { self.out.append(data) } },
            error: { data in self.lock.withLock { self.err.append(data) } })
    }

    var output: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var error: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
}

final class Box<Value>: @unchecked Sendable {
    var value: Value?
}
