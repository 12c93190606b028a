import Foundation

/// A socket between beautyctl and the stack's beautyd that names every request passed on
/// (Fixtures/request_recorder.py): how many requests a command makes, and which.
package struct RequestRecorder {
    /// Where beautyctl connects instead of the daemon's socket.
    package let socketPath: String
    let child: ChildProcess

    /// The methods of the requests passed on so far, in order.
    package var methods: [String] {
        child.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("request ") ? String(line.dropFirst("request ".count)) : nil
        }
    }
}

extension Stack {
    /// Starts a recorder in front of this stack's beautyd; returns once it listens.
    package func startRequestRecorder() async throws -> RequestRecorder {
        let path = directory + "/rec.sock"
        let child = try spawn(
            "request-recorder", Locations.python, [try Locations.fixture("request_recorder.py"), path, socketPath])
        let ready = await eventually(timeout: .seconds(10)) { () -> Bool? in
            if child.stdout.hasPrefix("ready") { return true }
            return child.isRunning ? nil : false
        }
        guard ready == true else { throw HarnessError("the request recorder did not start\n\(child.outputTail)") }
        return RequestRecorder(socketPath: path, child: child)
    }

    /// `beautyctl --socket <the recorder> ARGS...`
    package func beautyctl(_ arguments: [String], through recorder: RequestRecorder) async throws -> CommandResult {
        try await run(try Locations.built("beautyctl"), ["--socket", recorder.socketPath] + arguments)
    }
}
