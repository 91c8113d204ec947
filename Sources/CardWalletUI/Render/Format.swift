public import Foundation

/// Dates, sizes and durations as the UI writes them, with the time zone offset passed in
/// (nothing here reads the clock or the environment).
public enum Format {
    /// `14:03:05` in the zone `utcOffsetSeconds` east of UTC.
    public static func clock(_ date: Date, utcOffsetSeconds: Int) -> String {
        let seconds = localSeconds(date, utcOffsetSeconds)
        let day = floorMod(seconds, 86_400)
        return two(day / 3_600) + ":" + two(day / 60 % 60) + ":" + two(day % 60)
    }

    /// `2026-11-20 14:03` in the zone `utcOffsetSeconds` east of UTC.
    public static func dateTime(_ date: Date, utcOffsetSeconds: Int) -> String {
        let seconds = localSeconds(date, utcOffsetSeconds)
        let days = floorDiv(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        let time = floorMod(seconds, 86_400)
        return "\(year)-\(two(month))-\(two(day)) \(two(time / 3_600)):\(two(time / 60 % 60))"
    }

    /// `812 B`, `24.1 KiB`, `1.9 MiB`.
    public static func bytes(_ count: Int) -> String {
        if count < 1_024 { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(count) / 1_024
        var unit = 0
        while value >= 1_024, unit < units.count - 1 {
            value /= 1_024
            unit += 1
        }
        return oneDecimal(value) + " " + units[unit]
    }

    /// `12 ms`, `3.4 ms`, `1.2 s`.
    public static func duration(_ duration: Duration) -> String {
        let milliseconds =
            Double(duration.components.seconds) * 1_000
            + Double(duration.components.attoseconds) / 1e15
        if milliseconds >= 1_000 { return oneDecimal(milliseconds / 1_000) + " s" }
        if milliseconds >= 10 { return "\(Int(milliseconds.rounded())) ms" }
        return oneDecimal(milliseconds) + " ms"
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func localSeconds(_ date: Date, _ offset: Int) -> Int {
        let raw = date.timeIntervalSince1970.rounded(.down)
        guard raw.isFinite, abs(raw) < 1e15 else { return 0 }
        return Int(raw) + offset
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func floorDiv(_ a: Int, _ b: Int) -> Int { (a - floorMod(a, b)) / b }
    private static func floorMod(_ a: Int, _ b: Int) -> Int { ((a % b) + b) % b }

    /// Year, month and day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

/// How a log line reads in the pane and at the top of its detail page.
public enum LogFormat {
    /// The arrow of each kind of line.
    public static func marker(_ kind: LogLine.Kind) -> String {
        switch kind {
        case .request: "→"
        case .response: "←"
        case .failure: "✗"
        case .session: "*"
        }
    }

    /// `14:03:05 ← GET /cards?offset=0 200 E04 12 ms 4.1 KiB text`, leaving out what is unknown
    /// (and the text when `includingText` is false).
    public static func summary(_ line: LogLine, utcOffsetSeconds: Int, includingText: Bool = true) -> String {
        var parts = [Format.clock(line.time, utcOffsetSeconds: utcOffsetSeconds), marker(line.kind)]
        if let method = line.method { parts.append(method) }
        if let path = line.path { parts.append(path) }
        if let status = line.status { parts.append(String(status)) }
        if let code = line.errorCode { parts.append(code) }
        if let duration = line.duration { parts.append(Format.duration(duration)) }
        if let bytes = line.bytes { parts.append(Format.bytes(bytes)) }
        if includingText, !line.text.isEmpty { parts.append(line.text) }
        return parts.joined(separator: " ")
    }
}
