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
        let code = command.exitCode(for: error)
        let message = fullMessage(for: error, code: code, of: command)
        if !message.isEmpty {
            (code == .success ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
        }
        Foundation.exit(status(code))
    }
}
