public import Foundation

/// The JSON conventions of the contract: camelCase keys, ISO 8601 dates (UTC, milliseconds).
public enum CardWalletJSON {
    /// A new encoder with the contract's date format and sorted keys (stable bytes).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A new decoder that reads ISO 8601 dates with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date, got \(text.debugDescription)")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-21T09:30:00.123Z`: the date to the nearest millisecond.
    ///
    /// `ISO8601FormatStyle` cuts the fraction instead of rounding it, and a date parsed from
    /// `.818Z` is stored as a binary fraction a hair below it (`…0.8179998`), so formatting it
    /// directly printed `.817Z` (and `.001Z` as `.000Z`): a card written back after a read would
    /// change its date. The milliseconds are rounded here and written by hand.
    public static func formatDate(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e17 else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        let whole = Int64(milliseconds)
        let seconds = whole >= 0 ? whole / 1000 : (whole - 999) / 1000
        let fraction = Int(whole - seconds * 1000)
        let base = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle())
        // `base` ends in `Z` (the style's time zone is UTC).
        let digits = String(fraction)
        return base.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Parses `2026-11-21T09:30:00Z` or `2026-11-21T09:30:00.123Z` (or with an offset).
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
