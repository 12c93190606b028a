import BeautyLocalization
import Foundation

/// The WHO body-mass-index classes, as half-open intervals of the exact value: every BMI belongs
/// to exactly one class (no gaps such as 16.99–17.0 between two-decimal bounds, no overlaps).
///
/// | class | BMI |
/// |---|---|
/// | starvation | below 16 |
/// | emaciation | 16 ≤ BMI < 17 |
/// | underweight | 17 ≤ BMI < 18.5 |
/// | normal | 18.5 ≤ BMI < 25 |
/// | overweight | 25 ≤ BMI < 30 |
/// | obesity I | 30 ≤ BMI < 35 |
/// | obesity II | 35 ≤ BMI < 40 |
/// | extreme obesity | 40 and more |
public enum BMIClass: String, Codable, Sendable, CaseIterable {
    case starvation, emaciation, underweight, normal, overweight, obesityI, obesityII, extremeObesity

    /// Inclusive lower bound (nil: none).
    public var lowerBound: Double? {
        switch self {
        case .starvation: nil
        case .emaciation: 16
        case .underweight: 17
        case .normal: 18.5
        case .overweight: 25
        case .obesityI: 30
        case .obesityII: 35
        case .extremeObesity: 40
        }
    }

    /// Exclusive upper bound: the next class's lower bound (nil: none).
    public var upperBound: Double? {
        let all = Self.allCases
        let next = all.index(after: all.firstIndex(of: self)!)
        return next < all.endIndex ? all[next].lowerBound : nil
    }

    /// The class of an unrounded BMI value.
    public init(bmi: Double) {
        self = Self.allCases.last { $0.lowerBound.map { bmi >= $0 } ?? true }!
    }

    public var title: String { title(.english) }

    /// The class's name as the health services of the language name the WHO classes (Polish:
    /// wygłodzenie ... otyłość skrajna; Slovak: ťažká podvýživa ... obezita 3. stupňa).
    public func title(_ l: Localizer) -> String {
        switch self {
        case .starvation: l.trc("BMI class", "starvation")
        case .emaciation: l.trc("BMI class", "emaciation")
        case .underweight: l.trc("BMI class", "underweight")
        case .normal: l.trc("BMI class", "normal weight")
        case .overweight: l.trc("BMI class", "overweight")
        case .obesityI: l.trc("BMI class", "obesity class I")
        case .obesityII: l.trc("BMI class", "obesity class II")
        case .extremeObesity: l.trc("BMI class", "extreme obesity")
        }
    }

    public var range: String { range(.english) }

    /// "18.5 ≤ BMI < 25", "BMI < 16", "BMI ≥ 40"; "18,5 ≤ BMI < 25" with a decimal comma.
    public func range(_ language: Language) -> String {
        let trim = { (value: Double) in BMI.localized(BMI.trim(value), language) }
        switch (lowerBound, upperBound) {
        case let (low?, high?): return "\(trim(low)) ≤ BMI < \(trim(high))"
        case let (nil, high?): return "BMI < \(trim(high))"
        case let (low?, nil): return "BMI ≥ \(trim(low))"
        case (nil, nil): return "BMI"
        }
    }
}

/// Body-mass index: kg / m², computed as kg · 10 000 / cm² (exact for whole centimetres).
///
/// Rounding: the class is decided on the unrounded value. The value shown to people is cut
/// (not rounded) to one decimal, so it never lands on the other side of a class boundary:
/// 24.996 shows as "24.9" and is normal weight, where rounding would show "25.0".
public enum BMI {
    /// Weights outside this range (kilograms) are typos, not measurements.
    public static let weightRange: ClosedRange<Double> = 2...650
    /// Heights outside this range (centimetres) are typos; 1.68 is metres typed where centimetres go.
    public static let heightRange: ClosedRange<Double> = 40...280

    /// The unrounded BMI of a checked weight and height.
    public static func value(weightKg: Double, heightCm: Double) -> Double {
        weightKg * 10_000 / (heightCm * heightCm)
    }

    /// The BMI of a weight and height as typed ("62,5", "168"), both checked.
    public static func reading(weight: String, height: String) throws -> BMIReading {
        let kg = try checkWeight(parseNumber(weight, field: "weight"))
        let cm = try checkHeight(parseNumber(height, field: "height"))
        return BMIReading(weightKg: kg, heightCm: cm)
    }

    /// A decimal number with `.` or `,` as the decimal separator ("62,5", "62.5", "62"); no
    /// thousands separators, exponents, or signs other than a leading `-` (which the checks refuse).
    public static func parseNumber(_ text: String, field: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = Substring(trimmed)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: digits.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = {
            !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber }
        }
        guard !(digits.contains(",") && digits.contains(".")), (1...2).contains(parts.count), isDigits(parts[0]),
            parts.count == 1 || isDigits(parts[1]),
            let value = Double(parts.joined(separator: "."))
        else { throw ValidationError(field: field, template: "'%s' is not a number (e.g. 62.5 or 62,5)", text) }
        return negative ? -value : value
    }

    public static func checkWeight(_ kg: Double, field: String = "weight") throws -> Double {
        guard kg.isFinite, kg > 0 else { throw ValidationError(field: field, template: "must be more than 0 kg") }
        guard weightRange.contains(kg) else {
            throw ValidationError(
                field: field, template: "%s kg is not a body weight (%s to %s kg)", trim(kg),
                trim(weightRange.lowerBound), trim(weightRange.upperBound))
        }
        return kg
    }

    public static func checkHeight(_ cm: Double, field: String = "height") throws -> Double {
        guard cm.isFinite, cm > 0 else { throw ValidationError(field: field, template: "must be more than 0 cm") }
        if cm < 3 {
            throw ValidationError(
                field: field, template: "%s looks like metres: give centimetres (e.g. %s)", trim(cm), trim(cm * 100))
        }
        guard heightRange.contains(cm) else {
            throw ValidationError(
                field: field, template: "%s cm is not a body height (%s to %s cm)", trim(cm),
                trim(heightRange.lowerBound), trim(heightRange.upperBound))
        }
        return cm
    }

    /// The value as shown: cut to one decimal ("22.1" for 22.1437). A value a hair below a tenth
    /// through binary representation (22.299999999999997) still shows as that tenth.
    public static func format(_ bmi: Double) -> String {
        String(format: "%.1f", (bmi * 10 + 1e-9).rounded(.down) / 10)
    }

    /// A number written with a decimal point ("22.1") in the language's way ("22,1").
    public static func localized(_ number: String, _ language: Language) -> String {
        language == .english ? number : number.replacingOccurrences(of: ".", with: ",")
    }

    /// A weight or height as shown: at least one decimal, at most two ("63.0", "62.25").
    public static func quantity(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 10) == 0
            ? String(format: "%.1f", hundredths / 100)
            : String(format: "%.2f", hundredths / 100)
    }

    /// "168", "168.5", "16": no decimals when there are none.
    public static func trim(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return String(format: "%.0f", hundredths / 100) }
        return hundredths.truncatingRemainder(dividingBy: 10) == 0
            ? String(format: "%.1f", hundredths / 100)
            : String(format: "%.2f", hundredths / 100)
    }
}

/// A weight and height with their BMI and class (`beautyctl bmi`).
public struct BMIReading: Codable, Sendable, Equatable {
    public var weightKg: Double
    public var heightCm: Double
    /// Unrounded.
    public var bmi: Double
    public var bmiClass: BMIClass

    public init(weightKg: Double, heightCm: Double) {
        self.weightKg = weightKg
        self.heightCm = heightCm
        bmi = BMI.value(weightKg: weightKg, heightCm: heightCm)
        bmiClass = BMIClass(bmi: bmi)
    }
}

/// The weight of one day, with the height it was measured at and its BMI when a height is known.
/// One per day: a second measurement of the same day replaces the first.
public struct BodyMeasurement: Codable, Sendable, Equatable {
    public var day: LocalDate
    public var weightKg: Double
    public var heightCm: Double?
    /// Unrounded; nil when no height was known.
    public var bmi: Double?
    public var updatedAt: Date

    public init(day: LocalDate, weightKg: Double, heightCm: Double?, updatedAt: Date) {
        self.day = day
        self.weightKg = weightKg
        self.heightCm = heightCm
        bmi = heightCm.map { BMI.value(weightKg: weightKg, heightCm: $0) }
        self.updatedAt = updatedAt
    }

    public var bmiClass: BMIClass? { bmi.map(BMIClass.init(bmi:)) }

    /// "63.0 kg, BMI 22.3 (normal weight)" or "63.0 kg".
    public var summary: String { summary(.english) }

    /// "63,0 kg, BMI 22,3 (waga prawidłowa)": as `summary`, in the reader's language.
    public func summary(_ l: Localizer) -> String {
        let weight = BMI.localized(BMI.quantity(weightKg), l.language)
        guard let bmi else { return l.tr("%s kg", weight) }
        return l.tr(
            "%s kg, BMI %s (%s)", weight, BMI.localized(BMI.format(bmi), l.language), BMIClass(bmi: bmi).title(l))
    }

    private enum CodingKeys: String, CodingKey { case day, weightKg, heightCm, bmi, bmiClass, updatedAt }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        day = try c.decode(LocalDate.self, forKey: .day)
        weightKg = try c.decode(Double.self, forKey: .weightKg)
        heightCm = try c.decodeIfPresent(Double.self, forKey: .heightCm)
        bmi = try c.decodeIfPresent(Double.self, forKey: .bmi)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
    }

    /// With `bmiClass`, so a client need not know the class boundaries.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(day, forKey: .day)
        try c.encode(weightKg, forKey: .weightKg)
        try c.encodeIfPresent(heightCm, forKey: .heightCm)
        try c.encodeIfPresent(bmi, forKey: .bmi)
        try c.encodeIfPresent(bmiClass, forKey: .bmiClass)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
