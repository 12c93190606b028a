import BeautyCore
import Foundation
import Testing
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// November 2026 as the seed's chart screen would show it: four weighed days, one without a height.
private func november() throws -> [BodyMeasurement] {
    let at = Date(timeIntervalSince1970: 1_800_000_000)
    return [
        BodyMeasurement(day: try LocalDate(parsing: "2026-11-20"), weightKg: 62.5, heightCm: 168, updatedAt: at),
        BodyMeasurement(day: try LocalDate(parsing: "2026-11-03"), weightKg: 63.4, heightCm: 168, updatedAt: at),
        BodyMeasurement(day: try LocalDate(parsing: "2026-11-10"), weightKg: 64.5, heightCm: nil, updatedAt: at),
        BodyMeasurement(day: try LocalDate(parsing: "2026-11-28"), weightKg: 62.75, heightCm: 168, updatedAt: at),
        // Other months stay out.
        BodyMeasurement(day: try LocalDate(parsing: "2026-10-31"), weightKg: 70, heightCm: 168, updatedAt: at),
        BodyMeasurement(day: try LocalDate(parsing: "2026-12-01"), weightKg: 55, heightCm: 168, updatedAt: at),
    ]
}

private let month = CalendarMonth(year: 2026, month: 11)

@Suite("Measurement charts: months, scales, terminal text, SVG")
struct MeasurementChartTests {
    @Test func monthsParseAndKnowTheirDays() throws {
        #expect(try CalendarMonth(parsing: "2026-11") == month)
        #expect(try CalendarMonth(parsing: "2026-2").description == "2026-02")
        #expect(month.dayCount == 30 && month.name == "November 2026" && month.last.description == "2026-11-30")
        #expect(try CalendarMonth(parsing: "2028-02").dayCount == 29)
        #expect(try CalendarMonth(parsing: "2026-02").dayCount == 28)
        #expect(try CalendarMonth(parsing: "2026-12").dayCount == 31)
        for bad in ["2026-13", "2026-00", "2026", "26-11", "2026-11-01", "november", "", "2026/11", "0000-01"] {
            #expect(throws: ValidationError.self, "\(bad)") { try CalendarMonth(parsing: bad) }
        }
    }

    @Test func pointsAreTheMonthsDaysWithAValueInOrder() throws {
        let kg = MeasurementChart.points(try november(), month: month, unit: .kg)
        #expect(kg.map(\.day.day) == [3, 10, 20, 28])
        #expect(kg.map(\.value) == [63.4, 64.5, 62.5, 62.75])
        // A day weighed without any height known has no BMI: it is left out of a BMI chart.
        let bmi = MeasurementChart.points(try november(), month: month, unit: .bmi)
        #expect(bmi.map(\.day.day) == [3, 20, 28])
    }

    @Test func scalesUseRoundStepsAndCoverTheValues() {
        let scale = ChartScale(min: 62.5, max: 64.5, maxIntervals: 12)
        #expect(scale.step == 0.25 && scale.low == 62.5 && scale.high == 64.5)
        let padded = ChartScale(min: 62.5, max: 64.5, maxIntervals: 10, padded: true)
        #expect(padded.low < 62.5 && padded.high > 64.5 && padded.highTick - padded.lowTick <= 10)
        let one = ChartScale(min: 63, max: 63, maxIntervals: 12)
        #expect(one.low < 63 && one.high > 63)
        let wide = ChartScale(min: 48, max: 131, maxIntervals: 8)
        #expect(wide.low <= 48 && wide.high >= 131 && wide.highTick - wide.lowTick <= 8 && wide.step == 20)
        #expect(
            scale.label(62.5) == "62.50" && wide.label(60) == "60"
                && ChartScale(min: 22, max: 23, maxIntervals: 12).label(22.1) == "22.1")
    }

    @Test func terminalChartOfWeight() throws {
        let text = MeasurementChart.text(
            MeasurementChart.points(try november(), month: month, unit: .kg), month: month, unit: .kg)
        let expected = """
            Weight [kg], November 2026
            64.50 ┤                   ●
            64.25 ┤
            64.00 ┤
            63.75 ┤
            63.50 ┤     ●
            63.25 ┤
            63.00 ┤
            62.75 ┤                                                       ●
            62.50 ┤                                       ●
                  └─┬───────┬─────────┬─────────┬─────────┬─────────┬─────────┬
                    1       5         10        15        20        25        30
            4 days with data: min 62.5 kg (20 Nov), max 64.5 kg (10 Nov), last 62.75 kg (28 Nov)

            """
        #expect(text == expected, "\n\(text)")
    }

    @Test func terminalChartOfBMIPlacesTheValueAsShown() throws {
        let text = MeasurementChart.text(
            MeasurementChart.points(try november(), month: month, unit: .bmi), month: month, unit: .bmi)
        // 63.4 kg at 168 cm is 22.46 (shown 22.4), 62.5 kg is 22.14 (22.1), 62.75 kg is 22.23 (22.2).
        let expected = """
            BMI, November 2026
            22.4 ┤     ●
            22.3 ┤
            22.2 ┤                                                       ●
            22.1 ┤                                       ●
                 └─┬───────┬─────────┬─────────┬─────────┬─────────┬─────────┬
                   1       5         10        15        20        25        30
            3 days with data: min 22.1 (20 Nov), max 22.4 (3 Nov), last 22.2 (28 Nov)

            """
        #expect(text == expected, "\n\(text)")
    }

    @Test func terminalChartOfAnEmptyMonthSaysSo() {
        let text = MeasurementChart.text([], month: CalendarMonth(year: 2027, month: 2), unit: .kg)
        #expect(text == "Weight [kg], February 2027\nNo measurements in February 2027.\n")
    }

    @Test func svgIsALineChartWithOnePointPerDayAndHoverTitles() throws {
        let points = MeasurementChart.points(try november(), month: month, unit: .kg)
        let svg = MeasurementChart.svg(points, month: month, unit: .kg)
        let doc = try SVGDocument(svg)

        #expect(doc.root == "svg" && doc.rootAttributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(doc.rootAttributes["viewBox"] != nil)
        #expect(doc.text(of: "title").first == "Weight [kg], November 2026")

        // One point per day with data, in day order, each with a <title> naming the day and value.
        let circles = doc.elements.filter { $0.name == "circle" && $0.attributes["class"] == "point" }
        #expect(circles.count == points.count)
        #expect(circles.map { $0.attributes["data-day"] } == ["2026-11-03", "2026-11-10", "2026-11-20", "2026-11-28"])
        #expect(
            circles.map(\.title) == [
                "Tue 3 Nov 2026: 63.4 kg", "Tue 10 Nov 2026: 64.5 kg", "Fri 20 Nov 2026: 62.5 kg",
                "Sat 28 Nov 2026: 62.75 kg",
            ])
        let line = try #require(doc.elements.first { $0.name == "polyline" })
        #expect(line.attributes["points"]?.split(separator: " ").count == points.count)

        // The y axis covers min..max; each point sits where its value is on that axis.
        let yLabels = doc.elements.filter { $0.attributes["class"] == "y-label" }
        let ticks = try yLabels.map {
            (value: try #require(Double($0.text)), y: try #require(Double($0.attributes["y"] ?? "")))
        }
        #expect(ticks.count >= 2)
        let values = points.map(\.value)
        #expect(ticks.map(\.value).min()! <= values.min()! && ticks.map(\.value).max()! >= values.max()!)
        let (top, bottom) = (ticks.max { $0.value < $1.value }!, ticks.min { $0.value < $1.value }!)
        for (circle, point) in zip(circles, points) {
            let cy = try #require(Double(circle.attributes["cy"] ?? ""))
            // Labels sit 4 px below their grid line (baseline), hence the offset.
            let value = bottom.value + (bottom.y - 4 - cy) / (bottom.y - top.y) * (top.value - bottom.value)
            #expect(abs(value - point.value) < 0.01, "\(circle.attributes) drawn at \(value), should be \(point.value)")
        }
        // Points further right are later days.
        let xs = circles.compactMap { Double($0.attributes["cx"] ?? "") }
        #expect(xs == xs.sorted() && Set(xs).count == xs.count)

        // The x axis is labelled with days of the month, first and last included, and titled.
        let xLabels = doc.elements.filter { $0.attributes["class"] == "x-label" }.map(\.text)
        #expect(xLabels == ["1", "5", "10", "15", "20", "25", "30"])
        #expect(doc.elements.filter { $0.attributes["class"] == "x-tick" }.count == 30)
        #expect(doc.elements.first { $0.attributes["class"] == "x-title" }?.text == "Day of November 2026")
        #expect(doc.elements.first { $0.attributes["class"] == "y-title" }?.text == "Weight [kg]")
    }

    @Test func svgOfBMIAndOfAThirtyOneDayMonth() throws {
        let december = CalendarMonth(year: 2026, month: 12)
        let at = Date(timeIntervalSince1970: 0)
        let data = try (1...31).filter { $0 % 3 == 1 }.map {
            BodyMeasurement(
                day: try LocalDate(parsing: String(format: "2026-12-%02d", $0)), weightKg: 60 + Double($0) / 10,
                heightCm: 165, updatedAt: at)
        }
        let points = MeasurementChart.points(data, month: december, unit: .bmi)
        let doc = try SVGDocument(MeasurementChart.svg(points, month: december, unit: .bmi))
        let circles = doc.elements.filter { $0.attributes["class"] == "point" }
        #expect(circles.count == 11)
        #expect(
            circles.first?.title == "Tue 1 Dec 2026: BMI 22.0 (normal weight)",
            "\(String(describing: circles.first?.title))")
        #expect(doc.elements.filter { $0.attributes["class"] == "x-label" }.last?.text == "31")
        let labels = doc.elements.filter { $0.attributes["class"] == "y-label" }.compactMap { Double($0.text) }
        #expect(labels.min()! <= points.map(\.value).min()! && labels.max()! >= points.map(\.value).max()!)
    }

    @Test func svgEscapesAndStaysWellFormedWithoutData() throws {
        let doc = try SVGDocument(MeasurementChart.svg([], month: month, unit: .kg))
        #expect(doc.elements.filter { $0.attributes["class"] == "point" }.isEmpty)
        #expect(doc.elements.first { $0.attributes["class"] == "no-data" }?.text == "No measurements in November 2026")
    }
}

/// An SVG read back with Foundation's XMLParser: every element with its attributes and text.
private final class SVGDocument: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        /// The text of a `<title>` child.
        var title: String?
    }

    private(set) var elements: [Element] = []
    private var stack: [Int] = []
    private var failure: Error?
    var root: String? { elements.first?.name }
    var rootAttributes: [String: String] { elements.first?.attributes ?? [:] }

    init(_ text: String) throws {
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw failure ?? parser.parserError ?? NSError(domain: "SVG", code: 1)
        }
    }

    func text(of name: String) -> [String] { elements.filter { $0.name == name }.map(\.text) }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: name, attributes: attributes))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard let index = stack.last else { return }
        elements[index].text += string.trimmingCharacters(in: .newlines)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let index = stack.removeLast()
        if name == "title", let parent = stack.last { elements[parent].title = elements[index].text }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failure = parseError }
}
