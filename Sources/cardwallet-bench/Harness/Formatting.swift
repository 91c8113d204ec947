import Foundation

/// How numbers print in the tables: three significant digits in a unit that suits them.
enum Formatting {
    /// `value` (in the quantity's base unit) with its unit, e.g. `412 µs`, `1.23 ms`, `95.1 MB`.
    static func format(_ value: Double, as quantity: Quantity) -> String {
        switch quantity {
        case .time:
            let magnitude = abs(value)
            if magnitude < 1e-6 { return significant(value * 1e9) + " ns" }
            if magnitude < 1e-3 { return significant(value * 1e6) + " µs" }
            if magnitude < 1 { return significant(value * 1e3) + " ms" }
            return significant(value) + " s"
        case .bytes:
            return significant(value / 1e6) + " MB"
        case .rate:
            return grouped(Int(value.rounded())) + "/s"
        case .count:
            return value == value.rounded() && abs(value) < 1e15 ? grouped(Int(value)) : significant(value)
        }
    }

    /// A ratio, e.g. `0.63` or `1.02`.
    static func ratio(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// Three significant digits without an exponent: `0.412`, `4.12`, `41.2`, `412`, `4120`.
    static func significant(_ value: Double) -> String {
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(decimals)f", value)
    }

    /// `100000` as `100,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}
