import CMalloc

/// Gives freed heap memory back to the system after a large request or answer.
///
/// glibc keeps freed pages in its arenas for reuse, so without a trim the records, encoder tree and
/// JSON of one full-range agenda over 100,000 appointments (22 MB of JSON) would stay resident for
/// the life of the daemon (about 65 MiB more). `malloc_trim` returns them.
public enum Heap {
    /// Requests or answers at least this long are followed by a trim (a week's agenda is a few
    /// KiB; an import of 2,000 appointments is about 700 KiB).
    static let largeMessageBytes = 256 << 10

    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }

    /// Large blocks straight from mmap, so freeing them unmaps them. glibc otherwise raises this
    /// threshold to the largest block freed so far (16 MB after one big agenda), and later big
    /// blocks come from the arenas, where small live objects left between them pin the pages.
    static func mapLargeBlocks() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
    }

    /// At most two malloc arenas. glibc otherwise reserves a 64 MiB arena for up to eight threads
    /// per core (VSZ 1.3 GB with 31 threads, 0.4 GB with two arenas), and under `ulimit -v` a
    /// reservation that fails later crashes the daemon. Set before any thread exists.
    public static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
    }
}
