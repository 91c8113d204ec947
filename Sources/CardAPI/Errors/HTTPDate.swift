import Foundation

/// HTTP dates (RFC 9110, section 5.6.7), as `Retry-After` and `Date` carry them:
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the two obsolete forms a recipient must still accept,
/// `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`.
enum HTTPDate {
    /// The date, or `nil` when `text` is none of the three forms.
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        // Collapse the asctime form's padding (`Nov  6`) so one pattern reads it.
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for formatter in formatters {
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }

    // DateFormatter is Sendable: parsing from several threads at once is safe.
    private static let formatters: [DateFormatter] = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // RFC 850
        "EEE MMM d HH:mm:ss yyyy",  // asctime
    ].map { pattern in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = pattern
        return formatter
    }
}
