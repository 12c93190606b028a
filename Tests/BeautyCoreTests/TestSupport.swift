import BeautyCore
import Foundation

func utc(_ iso: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: iso)!
}

let warsaw = TimeZone(identifier: "Europe/Warsaw")!
