import BeautyStore

extension DatabaseRefusal {
    /// beautyd's exit status when it refuses a database: EX_NOPERM (77) for permissions, EX_DATAERR (65)
    /// for the file's contents. systemd is told not to restart on either: neither mends itself.
    var exitCode: Int32 {
        switch reason {
        case .notWritable, .secondName: return 77
        case .empty, .damaged, .newerSchema: return 65
        }
    }
}
