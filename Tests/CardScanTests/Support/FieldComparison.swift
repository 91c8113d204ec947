import CardModels
import Foundation

/// How a scanned value is compared with the printed one: exactly for email, website and phone
/// (case aside for the first two); name, company and title after Unicode compatibility
/// folding (㈜ is (주)) and with runs of spaces as one. The same rules as `cardwallet-bench scan`.
enum FieldComparison {
    static func matches(_ field: String, scanned: String, printed: String) -> Bool {
        switch field {
        case "email", "website": return scanned.lowercased() == printed.lowercased()
        case "phone": return scanned == printed
        default: return folded(scanned) == folded(printed)
        }
    }

    static func folded(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
