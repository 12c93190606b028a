import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("From/to ranges: instants half-open, days closed")
struct RangeRuleTests {
    @Test func instantsNeedToAfterFrom() throws {
        let from = instant("2026-12-01 00:00")
        try Validation.range(from: from, to: from.addingTimeInterval(1), .halfOpen)
        try Validation.range(from: nil, to: from, .halfOpen)
        try Validation.range(from: from, to: nil, .halfOpen)
        #expect(throws: ValidationError(field: "to", "must be after 'from'")) {
            try Validation.range(from: from, to: from, .halfOpen)
        }
        #expect(throws: ValidationError(field: "--to", "must be after --from")) {
            try Validation.range(
                from: from, to: from.addingTimeInterval(-1), .halfOpen, toField: "--to", fromName: "--from")
        }
    }

    @Test func daysMayEndOnTheirFirstDay() throws {
        let day = try LocalDate(parsing: "2026-12-01")
        try Validation.range(from: day, to: day, .closed)
        #expect(throws: ValidationError(field: "to", "must not be before 'from' 2026-12-01")) {
            try Validation.range(from: day, to: day.adding(days: -1), .closed)
        }
    }
}
