import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// A weight chart over a range longer than a month (`measure chart --from/--to`, `--months`).
@Suite struct MeasurementRangeChartTests {
    static func day(_ text: String) -> LocalDate { try! LocalDate(parsing: text) }

    static func weight(_ day: String, _ kg: Double, height: Double? = 160) -> BodyMeasurement {
        BodyMeasurement(day: Self.day(day), weightKg: kg, heightCm: height, updatedAt: Date(timeIntervalSince1970: 0))
    }

    @Test("a column a day while the range fits, else a week, a month, a year")
    func theBucketFitsTheRange() {
        #expect(ChartBucket.fitting(from: Self.day("2026-11-01"), to: Self.day("2026-11-30"), maxColumns: 34) == .day)
        #expect(ChartBucket.fitting(from: Self.day("2026-06-01"), to: Self.day("2026-11-30"), maxColumns: 34) == .week)
        #expect(ChartBucket.fitting(from: Self.day("2025-01-01"), to: Self.day("2026-11-30"), maxColumns: 34) == .month)
        #expect(ChartBucket.fitting(from: Self.day("2016-01-01"), to: Self.day("2026-11-30"), maxColumns: 34) == .year)
    }

    @Test("weeks start on Monday; months and years on their first day")
    func bucketStarts() {
        #expect(
            ChartBucket.week.start(of: Self.day("2026-11-29")) == Self.day("2026-11-23"),
            "a Sunday belongs to the week before")
        #expect(ChartBucket.week.start(of: Self.day("2026-11-23")) == Self.day("2026-11-23"))
        #expect(ChartBucket.week.next(after: Self.day("2026-12-28")) == Self.day("2027-01-04"))
        #expect(ChartBucket.month.next(after: Self.day("2026-12-01")) == Self.day("2027-01-01"))
        #expect(ChartBucket.year.start(of: Self.day("2026-11-29")) == Self.day("2026-01-01"))
    }

    @Test("each column is the mean of its days with data, cut to the range; days outside it are left out")
    func columnsAreMeans() throws {
        let measurements = [
            Self.weight("2026-05-31", 99), Self.weight("2026-06-02", 62), Self.weight("2026-06-04", 63),
            Self.weight("2026-06-20", 61.5), Self.weight("2026-12-01", 99),
        ]
        let chart = MeasurementRangeChart(
            measurements, from: Self.day("2026-06-01"), to: Self.day("2026-11-30"), unit: .kg)
        #expect(chart.bucket == .week)
        #expect(chart.points.map(\.day) == [Self.day("2026-06-02"), Self.day("2026-06-04"), Self.day("2026-06-20")])
        let first = try #require(chart.columns.first)
        #expect(
            first.first == Self.day("2026-06-01") && first.last == Self.day("2026-06-07") && first.value == 62.5
                && first.daysWithData == 2)
        #expect(chart.columns.last?.last == Self.day("2026-11-30"))
        #expect(chart.columns.count == 27 && chart.columns.filter { $0.value != nil }.count == 2)
    }

    @Test("the terminal chart names the range and what a column is, one dot per column with data, in Polish too")
    func textChart() {
        let measurements = [
            Self.weight("2026-06-02", 62), Self.weight("2026-06-04", 63), Self.weight("2026-09-15", 64),
            Self.weight("2026-11-20", 63.5),
        ]
        let chart = MeasurementRangeChart(
            measurements, from: Self.day("2026-06-01"), to: Self.day("2026-11-30"), unit: .kg)
        let english = chart.text()
        let lines = english.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Weight [kg], 1 Jun 2026 – 30 Nov 2026 (weekly averages)", "\(english)")
        #expect(english.filter { $0 == "●" }.count == 3, "\(english)")
        #expect(english.contains("1 Jun") && english.contains("4 days with data: min 62.0 kg (2 Jun)"), "\(english)")
        #expect(
            lines.allSatisfy { !$0.hasSuffix(" ") } && lines.dropFirst().dropLast(2).allSatisfy { $0.count <= 80 },
            "\(english)")
        let polish = chart.text(localizer: Localizer.forLanguage(.polish))
        #expect(polish.hasPrefix("Masa ciała [kg], 1.06.2026 – 30.11.2026 (średnie tygodniowe)"), "\(polish)")
        let empty = MeasurementRangeChart([], from: Self.day("2026-06-01"), to: Self.day("2026-11-30"), unit: .bmi)
            .text()
        #expect(empty.hasSuffix("No measurements from 1 Jun 2026 to 30 Nov 2026.\n"), "\(empty)")
    }

    @Test(
        "the SVG of a range: a point per column with data at its mean, hover naming the days averaged, labels under the axis"
    )
    func svgChart() {
        let measurements = [
            Self.weight("2026-06-02", 62), Self.weight("2026-06-04", 63), Self.weight("2026-09-15", 64),
        ]
        let svg = MeasurementRangeChart(
            measurements, from: Self.day("2026-06-01"), to: Self.day("2026-11-30"), unit: .kg
        ).svg()
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<circle class=\"point\"").count - 1 == 2, "\(svg)")
        #expect(
            svg.contains("data-value=\"62.5\"><title>1 Jun 2026 – 7 Jun 2026: 62.5 kg, average of 2 days</title>"),
            "\(svg)")
        #expect(svg.contains(">1 Jun</text>") && svg.contains(">weekly averages</text>"), "\(svg)")
        let empty = MeasurementRangeChart([], from: Self.day("2026-06-01"), to: Self.day("2026-06-01"), unit: .kg).svg()
        #expect(empty.contains("No measurements from 1 Jun 2026 to 1 Jun 2026."), "\(empty)")
    }

    @Test("a visit still scheduled after it ended is unconfirmed; one still going on, done or cancelled is not")
    func pastVisits() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(PastVisit.isUnconfirmed(status: "scheduled", end: now, now: now))
        #expect(!PastVisit.isUnconfirmed(status: "scheduled", end: now.addingTimeInterval(1), now: now))
        #expect(!PastVisit.isUnconfirmed(status: "done", end: now.addingTimeInterval(-60), now: now))
        #expect(!PastVisit.isUnconfirmed(status: "cancelled", end: now.addingTimeInterval(-60), now: now))
    }

    @Test(
        "an edit that places a floating visit's time pins it to the user's zone; occurrences, all-day, cleared or pinned ones keep theirs"
    )
    func editsPinTheZone() {
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let floating = Appointment(title: "Henna", start: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(
            AppointmentZonePin.pinned(floating, placesStart: true, clearsZone: false, zone: warsaw).timeZone
                == "Europe/Warsaw")
        #expect(
            AppointmentZonePin.pinned(floating, placesStart: false, clearsZone: false, zone: warsaw).timeZone == nil,
            "a new title only")
        #expect(
            AppointmentZonePin.pinned(floating, placesStart: true, clearsZone: true, zone: warsaw).timeZone == nil,
            "--clear tz")
        var london = floating
        london.timeZone = "Europe/London"
        #expect(
            AppointmentZonePin.pinned(london, placesStart: true, clearsZone: false, zone: warsaw).timeZone
                == "Europe/London")
        var allDay = floating
        allDay.allDay = true
        #expect(AppointmentZonePin.pinned(allDay, placesStart: true, clearsZone: false, zone: warsaw).timeZone == nil)
        var occurrence = floating
        occurrence.seriesID = 4
        #expect(
            AppointmentZonePin.pinned(occurrence, placesStart: true, clearsZone: false, zone: warsaw).timeZone == nil)
        var series = floating
        series.recurrence = AppointmentRecurrence(rule: "FREQ=WEEKLY", changed: [floating.start])
        #expect(
            AppointmentZonePin.pinned(series, placesStart: true, clearsZone: false, zone: warsaw).timeZone == nil,
            "its changed occurrences were written against the floating series")
        series.recurrence?.changed = []
        #expect(
            AppointmentZonePin.pinned(series, placesStart: true, clearsZone: false, zone: warsaw).timeZone
                == "Europe/Warsaw")
        #expect(
            AppointmentZonePin.pinned(
                floating, placesStart: true, clearsZone: false, zone: TimeZone(secondsFromGMT: 3600)!
            ).timeZone == nil,
            "a zone without an IANA name is not pinned")
    }
}
