import Foundation

/// The two date forms a CardDAV sync reads for every card, parsed by hand: a vCard's `REV`
/// (ISO 8601, basic or extended) and `getlastmodified` (RFC 9110's HTTP date). Both forms are
/// fixed, and a `DateFormatter` made per card cost a sixth of a first sync's time
/// (docs/BENCHMARKS.md, #28).
enum DAVDates {
    /// `20261128T084500Z`, `2026-11-28T08:45:00Z`, `20261128T084500+0100`, `…T08:45:00.5-05:00`,
    /// `20261128` or `2026-11-28` (midnight UTC); `nil` for anything else.
    static func iso(_ text: some StringProtocol) -> Date? {
        var scanner = DigitScanner(Array(text.trimmingCharacters(in: .whitespaces).utf8))
        guard let year = scanner.number(4) else { return nil }
        scanner.skipSeparator("-")
        guard let month = scanner.number(2) else { return nil }
        scanner.skipSeparator("-")
        guard let day = scanner.number(2) else { return nil }
        var seconds = 0
        var offset = 0
        if scanner.skip("T") {
            guard let hour = scanner.number(2), hour < 24 else { return nil }
            scanner.skipSeparator(":")
            guard let minute = scanner.number(2), minute < 60 else { return nil }
            scanner.skipSeparator(":")
            guard let second = scanner.number(2), second <= 60 else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if scanner.skip(".") || scanner.skip(",") {
                guard scanner.digits() > 0 else { return nil }
            }
            if !scanner.skip("Z"), let sign = scanner.sign() {
                guard let hours = scanner.number(2), hours < 24 else { return nil }
                scanner.skipSeparator(":")
                let minutes = scanner.atEnd ? 0 : scanner.number(2)
                guard let minutes, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard scanner.atEnd, let days = days(year: year, month: month, day: day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + seconds - offset))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`; `nil` for anything else.
    static func http(_ text: some StringProtocol) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
            let days = days(year: year, month: month + 1, day: day)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar; `nil` for a day the
    /// month does not have.
    static func days(year: Int, month: Int, day: Int) -> Int? {
        let lengths = [
            31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads fixed-width numbers and single characters off UTF-8 bytes.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// The `count`-digit number here, or `nil` (and nothing read).
    mutating func number(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    /// Reads the digits here, however many; how many.
    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    /// Reads `character` when it is here.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Reads `character` when it is here (a separator the basic form leaves out).
    mutating func skipSeparator(_ character: Unicode.Scalar) {
        _ = skip(character)
    }

    /// +1 or -1 for a sign here (read), else `nil`.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
