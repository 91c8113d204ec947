public import Foundation

/// HTTP dates (RFC 9110, section 5.6.7), as `Retry-After` and `Date` carry them:
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the two obsolete forms a recipient must still accept,
/// `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`.
public enum HTTPDate {
    /// The date, or `nil` when `text` is none of the three forms.
    public static func parse(_ text: String) -> Date? {
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

extension Response {
    /// `Retry-After` as whole seconds: a number of seconds, or an HTTP date (RFC 9110), which
    /// is measured from the response's own `Date` header when it has one (so the two clocks
    /// need not agree) and from `now` otherwise, rounded up; a date in the past is no wait;
    /// `nil` without the header or with one that is neither.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let text = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only; a number too large for Int is a very long wait, not none.
            return .seconds(Int(text) ?? Int.max)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let reference = headers["Date"].flatMap(HTTPDate.parse) ?? now
        let seconds = date.timeIntervalSince(reference).rounded(.up)
        guard seconds > 0 else { return .zero }
        return .seconds(seconds < Double(Int32.max) ? Int(seconds) : Int(Int32.max))
    }
}
