import BeautyCore
import Foundation

/// Store tests set in Warsaw in January 2027 (UTC+1), "now" being Friday 15 January, 10:30.
protocol WarsawJanuary2027 {}

extension WarsawJanuary2027 {
    var zone: TimeZone { TimeZone(identifier: "Europe/Warsaw")! }

    /// A wall-clock time in January 2027 in Warsaw.
    func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        LocalTime.instant(year: 2027, month: 1, day: day, hour: hour, minute: minute, in: zone)!
    }

    /// Friday 15 January 2027, 10:30 in Warsaw.
    var now: Date { local(15, 10, 30) }
}
