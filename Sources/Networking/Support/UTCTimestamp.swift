import Foundation

/// `2026-11-21T09:30:00.123Z`: what `Date.ISO8601FormatStyle(includingFractionalSeconds: true)`
/// writes, to the digit, without its calendar machinery (every log line's detail shows one, and
/// the style cost a tenth of a line).
enum UTCTimestamp {
    /// Made once: building the style costs as much as using it.
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The timestamp of `date`; dates outside the years 1600–9999 go to Foundation's style (which
    /// also switches to the Julian calendar before 1582).
    static func format(_ date: Date) -> String {
        // The style counts milliseconds from the reference date's whole seconds, truncating:
        // so does this, which keeps the two equal where a binary fraction sits near a boundary.
        let sinceReference = date.timeIntervalSinceReferenceDate
        let whole = sinceReference.rounded(.down)
        guard whole.magnitude < 1e12 else { return date.formatted(style) }
        let milliseconds = Int(((sinceReference - whole) * 1_000_000_000).rounded(.down)) / 1_000_000
        let seconds = Int(whole) + 978_307_200
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (1600...9999).contains(year), (0..<1000).contains(milliseconds) else { return date.formatted(style) }
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            func put(_ value: Int, digits: Int) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    index += 1
                }
            }
            func put(_ character: Unicode.Scalar) {
                buffer[index] = UInt8(ascii: character)
                index += 1
            }
            put(year, digits: 4)
            put("-")
            put(month, digits: 2)
            put("-")
            put(day, digits: 2)
            put("T")
            put(secondOfDay / 3600, digits: 2)
            put(":")
            put(secondOfDay % 3600 / 60, digits: 2)
            put(":")
            put(secondOfDay % 60, digits: 2)
            put(".")
            put(milliseconds, digits: 3)
            put("Z")
            return index
        }
    }

    /// The proleptic Gregorian year, month and day `days` after 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
