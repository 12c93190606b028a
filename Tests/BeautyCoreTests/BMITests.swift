import BeautyCore
import Foundation
import Testing

@Suite("BMI: classes without gaps, numbers as typed, rounding")
struct BMITests {
    /// Every edge of the WHO table, from both sides: the seed's `> 16.0 && < 16.99` left 16.0,
    /// 16.99…17.0, 18.49…18.5 and the rest without a class.
    @Test(arguments: [
        (0.5, BMIClass.starvation), (15.99, .starvation), (15.999_999, .starvation),
        (16.0, .emaciation), (16.5, .emaciation), (16.99, .emaciation), (16.999, .emaciation),
        (16.999_999_9, .emaciation),
        (17.0, .underweight), (17.5, .underweight), (18.49, .underweight), (18.499, .underweight),
        (18.5, .normal), (22.0, .normal), (24.99, .normal), (24.999, .normal),
        (25.0, .overweight), (27.5, .overweight), (29.99, .overweight), (29.999, .overweight),
        (30.0, .obesityI), (34.99, .obesityI), (34.999, .obesityI),
        (35.0, .obesityII), (39.99, .obesityII), (39.999, .obesityII),
        (40.0, .extremeObesity), (40.01, .extremeObesity), (75.0, .extremeObesity),
    ])
    func boundaryTable(_ bmi: Double, _ expected: BMIClass) {
        #expect(BMIClass(bmi: bmi) == expected, "BMI \(bmi)")
    }

    @Test func theClassesTileTheLineWithHalfOpenIntervals() {
        let classes = BMIClass.allCases
        #expect(classes.first?.lowerBound == nil && classes.last?.upperBound == nil)
        for (a, b) in zip(classes, classes.dropFirst()) {
            #expect(a.upperBound == b.lowerBound, "\(a) ends where \(b) starts")
            #expect(BMIClass(bmi: b.lowerBound!) == b)
            #expect(BMIClass(bmi: b.lowerBound!.nextDown) == a)
        }
        #expect(BMIClass.normal.range == "18.5 ≤ BMI < 25")
        #expect(BMIClass.starvation.range == "BMI < 16")
        #expect(BMIClass.extremeObesity.range == "BMI ≥ 40")
    }

    @Test func computesKilogramsPerSquareMetre() throws {
        #expect(BMI.value(weightKg: 72.25, heightCm: 170) == 25)
        #expect(abs(BMI.value(weightKg: 62.5, heightCm: 168) - 22.144_27) < 0.000_01)
        let reading = try BMI.reading(weight: "62,5", height: "168")
        #expect(reading.weightKg == 62.5 && reading.heightCm == 168 && reading.bmiClass == .normal)
        // Exactly on an edge: 72.25 kg at 170 cm is 25.0, overweight (the seed called it nothing).
        #expect(try BMI.reading(weight: "72.25", height: "170").bmiClass == .overweight)
    }

    @Test func theShownValueIsCutSoItStaysInItsClass() {
        #expect(BMI.format(22.144) == "22.1")
        #expect(BMI.format(22.19) == "22.1")
        #expect(BMI.format(24.996) == "24.9")  // normal weight: "25.0" would read as overweight
        #expect(BMI.format(25) == "25.0")
        #expect(BMI.format(18.5) == "18.5")
        #expect(BMI.format(22.299_999_999_999_997) == "22.3")  // 22.3 as binary gives it
        for value in stride(from: 15.0, through: 41.0, by: 0.013) {
            let shown = Double(BMI.format(value))!
            #expect(BMIClass(bmi: shown) == BMIClass(bmi: value), "\(value) shows as \(shown)")
        }
    }

    @Test(arguments: [
        ("62,5", 62.5), ("62.5", 62.5), ("62", 62.0), (" 168 ", 168.0), ("0,05", 0.05), ("-5", -5.0),
        ("100,25", 100.25),
    ])
    func parsesDecimalCommaOrPoint(_ text: String, _ value: Double) throws {
        #expect(try BMI.parseNumber(text, field: "weight") == value)
    }

    @Test(arguments: [
        "", "abc", "6o", "62,5,1", "1.000,5", "62.", ",5", "1e3", "62 kg", "--5", "+5", "nan", "inf", "1234567890",
    ])
    func refusesWhatIsNotANumber(_ text: String) {
        #expect(throws: ValidationError.self) { try BMI.parseNumber(text, field: "weight") }
    }

    @Test func refusesWeightsAndHeightsNoBodyHas() throws {
        for (weight, height, message) in [
            ("0", "168", "more than 0"), ("-62", "168", "more than 0"), ("1000", "168", "not a body weight"),
            ("62", "0", "more than 0"), ("62", "-170", "more than 0"), ("62", "1,68", "looks like metres"),
            ("62", "20", "not a body height"), ("62", "900", "not a body height"),
        ] {
            let error = #expect(throws: ValidationError.self) { try BMI.reading(weight: weight, height: height) }
            #expect(
                error?.message.contains(message) == true, "\(weight) kg, \(height) cm: \(String(describing: error))")
        }
        #expect(try BMI.checkWeight(650) == 650)
        #expect(try BMI.checkHeight(40) == 40)
    }

    @Test func quantitiesShowOneOrTwoDecimals() {
        #expect(BMI.quantity(63) == "63.0")
        #expect(BMI.quantity(62.25) == "62.25")
        #expect(BMI.quantity(62.5) == "62.5")
        #expect(BMI.trim(168) == "168")
        #expect(BMI.trim(168.5) == "168.5")
    }

    @Test func aMeasurementCarriesItsClassOnTheWire() throws {
        let day = try LocalDate(parsing: "2026-11-20")
        let m = BodyMeasurement(day: day, weightKg: 72.25, heightCm: 170, updatedAt: Date(timeIntervalSince1970: 0))
        #expect(m.bmi == 25 && m.bmiClass == .overweight)
        #expect(m.summary == "72.25 kg, BMI 25.0 (overweight)")
        let json = String(decoding: try JSONEncoder().encode(m), as: UTF8.self)
        #expect(json.contains(#""bmiClass":"overweight""#) && json.contains(#""day":"2026-11-20""#), "\(json)")
        let back = try JSONDecoder().decode(BodyMeasurement.self, from: Data(json.utf8))
        #expect(back == m)
        let noHeight = BodyMeasurement(day: day, weightKg: 63, heightCm: nil, updatedAt: Date(timeIntervalSince1970: 0))
        #expect(noHeight.bmi == nil && noHeight.bmiClass == nil && noHeight.summary == "63.0 kg")
        let plain = String(decoding: try JSONEncoder().encode(noHeight), as: UTF8.self)
        #expect(!plain.contains("bmi"), "\(plain)")
    }
}
