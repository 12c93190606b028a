@testable import BeautyStore
import Foundation
import GRDB
import Testing

/// The appointment row's dates are written by arithmetic; they must be the very text GRDB writes,
/// or a range query, an ORDER BY and the import's "unchanged" check would see other values.
@Suite struct StoredDateTests {
    @Test(
        "dates are stored as GRDB stores them: whole seconds, milliseconds, sub-millisecond noise, halves, before 1970, far ahead"
    )
    func asGRDBWritesThem() {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            0, -0.0005, -1, -86_400.5, 1_800_000_000.125, 1_764_000_000.591, 1_764_000_000.9999,
            -12_212_553_600, -12_212_553_600.001, 253_402_300_799.999, 253_402_300_800, -62_135_596_800,
            -2_078_082_291.7465, 1_764_000_000.5005, 1_764_000_000.0004999, 140_737_488_355.328,
        ]
        .map { Date(timeIntervalSince1970: $0) }
        for _ in 0..<50_000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: -12_000_000_000...250_000_000_000, using: &generator)))
            dates.append(
                Date(timeIntervalSince1970: Double(Int.random(in: -1_000_000_000...5_000_000_000, using: &generator))))
            dates.append(
                Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000_000, using: &generator)) / 1000))
        }
        for date in dates {
            #expect(StoredDate.databaseValue(date) == date.databaseValue, "\(date.timeIntervalSince1970)")
        }
        #expect(StoredDate.text(Date(timeIntervalSince1970: -12_212_553_600.001)) == nil)
        #expect(StoredDate.databaseValue(nil as Date?) == .null)
    }
    @Test("stored dates are read as GRDB reads them, to the bit; other forms are left to GRDB")
    func readAsGRDBReadsThem() {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "1970-01-01 00:00:00.000", "2026-12-31 23:59:59.999", "2028-02-29 12:00:00.500", "1583-01-01 00:00:00.001",
        ]
        for _ in 0..<100_000 {
            let date = Date(
                timeIntervalSince1970: Double(
                    Int.random(in: -12_000_000_000_000...140_000_000_000_000, using: &generator)) / 1000)
            texts.append(StoredDate.text(date) ?? String.fromDatabaseValue(date.databaseValue)!)
        }
        for text in texts {
            let grdb = Date.fromDatabaseValue(text.databaseValue)!
            #expect(
                StoredDate.date(text)?.timeIntervalSinceReferenceDate.bitPattern
                    == grdb.timeIntervalSinceReferenceDate.bitPattern, "\(text)")
        }
        for other in [
            "2026-12-01 13:00:00", "2026-12-01T13:00:00.000", "2026-02-30 13:00:00.000", "1582-12-31 23:59:59.999",
            "2026-12-01 24:00:00.000", "2026-12-01 13:00:00.0000", "２026-12-01 13:00:00.000",
        ] {
            #expect(StoredDate.date(other) == nil, "\(other)")
        }
    }
}
