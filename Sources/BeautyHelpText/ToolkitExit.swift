import ArgumentParser
import Foundation

extension ToolkitText {
    /// Ends the process as ArgumentParser's `exit(withError:)` does, with its words in the user's language:
    /// a help screen (or version, completion script) on standard output, any other message on standard
    /// error, then the exit code, which `status` may map to the program's own (beautyctl's usage errors are 2).
    public func exit(
        _ command: any ParsableCommand.Type, withError error: Error,
        status: (ExitCode) -> Int32 = { $0.rawValue }
    ) -> Never {
        let (message, code) = outcome(command, withError: error)
        if !message.isEmpty {
            (code == .success ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
        }
        Foundation.exit(status(code))
    }

    /// What `exit` prints for `error` and ArgumentParser's exit code for it, the process left running
    /// (a command line run in process): the message belongs on standard output when the code is `.success`.
    public func outcome(_ command: any ParsableCommand.Type, withError error: Error) -> (
        message: String, code: ExitCode
    ) {
        let code = command.exitCode(for: error)
        return (fullMessage(for: error, code: code, of: command), code)
    }
}
