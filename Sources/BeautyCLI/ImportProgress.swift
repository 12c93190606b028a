import Foundation

/// "Importing 45,000/100,000 events…" on standard error, rewritten in place a few times a second,
/// only when standard error is a terminal (and never for --json): a script sees nothing of it.
final class ImportProgress {
    private let total: Int
    private let enabled: Bool
    private var lastShown: Date?
    private static let interval: TimeInterval = 0.25

    init(total: Int, quiet: Bool) {
        self.total = total
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        if let lastShown, now.timeIntervalSince(lastShown) < Self.interval { return }
        lastShown = now
        let count = { (n: Int) in Output.l.language == .english ? Self.grouped(n) : Output.numbers.integer(n) }
        write(
            "\r\u{1B}[2K"
                + Output.l.trn("Importing %s/%s event…", "Importing %s/%s events…", total, count(done), count(total)))
    }

    /// Clears the line before the result (or an error) is printed.
    func finish() {
        guard enabled, lastShown != nil else { return }
        write("\r\u{1B}[2K")
    }

    private func write(_ text: String) {
        Output.writeError(Data(text.utf8))
    }

    /// 45,000
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
