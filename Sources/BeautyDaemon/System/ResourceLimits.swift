import Foundation

/// The process limits beautyd needs, checked before it starts anything, so a limit too low for it
/// ends the start with a message instead of a crash or a daemon that answers nothing.
public enum ResourceLimits {
    /// Address space (`ulimit -v`) below which threads, stacks and malloc arenas cannot be reserved.
    /// The daemon reserves far more than it touches (8 MiB of stack per thread; two malloc arenas):
    /// 0.23 GB idle and 0.37 GB with 24 clients at once (ps -o vsz); 1 GiB leaves room for the
    /// threads a burst of connections adds.
    public static let minimumAddressSpace: UInt64 = 1 << 30

    /// Descriptors kept free for the database, the bus, the journal and the timers, beyond clients.
    static let reservedDescriptors = 32
    /// Client connections served at once (more are answered -32002 and closed); fewer when the
    /// descriptor limit is lower.
    public static let maximumConnections = 256
    /// Fewer descriptors than this for clients and beautyd refuses to start.
    static let minimumClientDescriptors = 8
    /// Kept free beyond `reservedDescriptors` when the connection maximum is set.
    static let servingMargin = 32

    public struct TooLow: Error, CustomStringConvertible {
        public var description: String
    }

    /// Refuses an address-space limit too small to start in: checked first thing in `main`, before
    /// any thread is made (a failed thread or arena reservation later crashes or hangs the daemon).
    public static func checkAddressSpace() throws {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return
        }
        if UInt64(limit.rlim_cur) < minimumAddressSpace, UInt64(limit.rlim_max) >= minimumAddressSpace {
            limit.rlim_cur = rlim_t(minimumAddressSpace)
            if setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 { return }
        }
        guard UInt64(limit.rlim_cur) >= minimumAddressSpace else {
            throw TooLow(
                description: """
                    the address-space limit (ulimit -v) is \(limit.rlim_cur / 1024) KiB; beautyd needs at least \
                    \(minimumAddressSpace / 1024) KiB (it reserves much more than it uses). Raise it (ulimit -v \
                    \(minimumAddressSpace / 1024), or LimitAS= in the unit)
                    """)
        }
    }

    /// Raises the soft descriptor limit to the hard one and returns how many client connections
    /// fit, or refuses when too few would.
    public static func connectionsThatFit() throws -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return maximumConnections }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur != rlim_t.max else { return maximumConnections }
        let inUse = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        let free = Int(min(UInt64(limit.rlim_cur), UInt64(Int32.max))) - inUse - reservedDescriptors
        guard free >= minimumClientDescriptors else {
            throw TooLow(
                description: """
                    the open-file limit (ulimit -n) is \(limit.rlim_cur) and \(inUse) are in use; beautyd needs at least \
                    \(inUse + reservedDescriptors + minimumClientDescriptors). Raise it (ulimit -n, or LimitNOFILE= in the unit)
                    """)
        }
        // Connections get what is left after a wider margin than the start needs: once serving, the
        // bus, the journal, SQLite's readers and connections being turned away take about as many
        // descriptors again as were in use at this point.
        return min(maximumConnections, max(minimumClientDescriptors, free - servingMargin))
    }
}
