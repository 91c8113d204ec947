/// The part of a content line before its value, `[group.]NAME;PARAM=…`, split as written so
/// that an edit can keep every parameter byte for byte and drop only those that describe the
/// old value.
struct RawHeader {
    /// `item1.EMAIL` as written.
    var name: String
    /// Each parameter as written, without its `;`: `type=INTERNET`, `PREF=1`, `X-FOO="a;b"`.
    var parameters: [String]

    /// The header of an unfolded content line: up to the first `:` outside double quotes.
    init(line: [UInt8]) {
        var segments: [[UInt8]] = [[]]
        var quoted = false
        for byte in line {
            if byte == 0x22 { quoted.toggle() }
            if !quoted, byte == 0x3A { break }
            if !quoted, byte == 0x3B {
                segments.append([])
            } else {
                segments[segments.count - 1].append(byte)
            }
        }
        name = String(decoding: segments[0], as: UTF8.self)
        parameters = segments.dropFirst().map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
    }

    /// The group with its dot (`item1.`), or "".
    var groupPrefix: String {
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[...dot])
    }

    /// The parameter's name, upper-cased: `TYPE` for `type=work`, `QUOTED-PRINTABLE` for a bare one.
    static func parameterName(_ parameter: String) -> String {
        String(parameter.prefix { $0 != "=" }).trimmingVCardWhitespace.uppercased()
    }

    /// The parameters that describe how the old value was written, never true of a new one: its
    /// transfer encoding and charset (the new value is plain UTF-8), its value type (every value
    /// an edit writes is of its property's default type).
    static let describingValue: Set<String> = [
        "ENCODING", "CHARSET", "VALUE", "QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT",
    ]

    /// The header without the parameters named in `dropping` (upper-case names).
    func text(dropping: Set<String>) -> String {
        var out = name
        for parameter in parameters where !dropping.contains(Self.parameterName(parameter)) {
            out += ";" + parameter
        }
        return out
    }
}
