public import Foundation

/// A length of time written the way people type it: `200ms`, `30s`, `5m`, `1h`, `1d`, or
/// several of those run together (`1h30m`). `0` alone means no time at all.
///
/// Used by the configuration files (`"accessTokenTTL": "5m"`) and the command line
/// (`--access-ttl 30s`); it encodes back to the shortest such text.
public struct TimeSpan: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The length in whole milliseconds, never negative.
    public let milliseconds: Int64

    /// The longest span accepted: ten years, far beyond any sensible token lifetime.
    public static let maximum = TimeSpan(uncheckedMilliseconds: 3650 * 86_400_000)

    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("ms", 1), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    private init(uncheckedMilliseconds: Int64) { milliseconds = uncheckedMilliseconds }

    /// A span of whole milliseconds; negative values are clamped to zero, huge ones to ``maximum``.
    public init(milliseconds: Int64) {
        self.milliseconds = min(max(0, milliseconds), Self.maximum.milliseconds)
    }

    /// A span of `value` milliseconds.
    public static func milliseconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value) }
    /// A span of `value` seconds.
    public static func seconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 1000) }
    /// A span of `value` minutes.
    public static func minutes(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 60_000) }
    /// A span of `value` hours.
    public static func hours(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 3_600_000) }
    /// A span of `value` days.
    public static func days(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 86_400_000) }
    /// No time at all.
    public static let zero = TimeSpan(uncheckedMilliseconds: 0)

    /// Parses text such as `200ms`, `30s`, `5m`, `1.5h`, `1d` or `1h30m`.
    /// - Throws: ``TimeSpanError`` saying what is wrong and what is expected.
    public init(parsing text: String) throws(TimeSpanError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.isEmpty { throw TimeSpanError(text: text, reason: "it is empty") }
        if trimmed.allSatisfy({ $0 == "0" }) {
            self = .zero
            return
        }
        var rest = Substring(trimmed)
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else {
                throw TimeSpanError(text: text, reason: "expected a number at “\(rest)”")
            }
            rest = rest.dropFirst(number.count)
            let word = rest.prefix { $0.isLetter }
            guard let unit = Self.units.first(where: { $0.suffix == word }) else {
                let reason =
                    word.isEmpty
                    ? "“\(number)” has no unit" : "“\(word.prefix(12))” is not a unit (use ms, s, m, h or d)"
                throw TimeSpanError(text: text, reason: reason)
            }
            rest = rest.dropFirst(word.count)
            total += value * Double(unit.milliseconds)
            if total > Double(Self.maximum.milliseconds) {
                throw TimeSpanError(text: text, reason: "it is longer than \(Self.maximum)")
            }
        }
        let rounded = total.rounded()
        guard abs(rounded - total) < 0.000_001 else {
            throw TimeSpanError(text: text, reason: "it is finer than a millisecond")
        }
        milliseconds = Int64(rounded)
    }

    /// Parses text as ``init(parsing:)`` does, or returns `nil`.
    public init?(_ description: String) {
        guard let span = try? TimeSpan(parsing: description) else { return nil }
        self = span
    }

    /// The shortest text for this span that parses back to it: `5m`, `1d`, `1m30s`, `250ms`, `0s`.
    public var description: String {
        if milliseconds == 0 { return "0s" }
        var rest = milliseconds
        var text = ""
        for (suffix, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)] {
            let count = rest / size
            if count > 0 {
                text += "\(count)\(suffix)"
                rest -= count * size
            }
        }
        return text
    }

    /// The span as a Swift `Duration`.
    public var duration: Duration { .milliseconds(milliseconds) }

    /// The span in seconds, as Foundation counts time.
    public var timeInterval: TimeInterval { TimeInterval(milliseconds) / 1000 }

    /// Orders spans by length.
    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// Decodes a span from its text form, e.g. `"5m"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try TimeSpan(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the span as its text form, e.g. `"5m"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a text is not a ``TimeSpan``.
public struct TimeSpanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that failed to parse.
    public let text: String
    /// What is wrong with it.
    public let reason: String

    /// A message a person can act on, with examples of what works.
    public var description: String {
        "“\(text)” is not a duration: \(reason). Write a number and a unit, e.g. 200ms, 30s, 5m, 1h or 1d."
    }
}
