import BeautyCore
import Foundation

/// Instants built from a wall-clock time in a named zone, so tests read like calendars.
func instant(_ text: String, _ zone: String = "Europe/Warsaw") -> Date {
    let tz = TimeZone(identifier: zone)!
    let parts = text.split(separator: " ")
    let ymd = parts[0].split(separator: "-").map { Int($0)! }
    let hms = parts.count > 1 ? parts[1].split(separator: ":").map { Int($0)! } : [0, 0]
    return LocalTime.instant(year: ymd[0], month: ymd[1], day: ymd[2], hour: hms[0], minute: hms[1],
                             second: hms.count > 2 ? hms[2] : 0, in: tz)!
}

func utc(_ iso: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: iso)!
}

let warsaw = TimeZone(identifier: "Europe/Warsaw")!
