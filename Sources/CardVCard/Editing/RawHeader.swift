/// The part of a content line before its value, `[group.]NAME;PARAM=…`, split as written so
/// that an edit can keep every parameter byte for byte and drop only those that describe the
/// old value.
struct RawHeader {
    /// `item1.EMAIL` as written.
    var name: String
    /// Each parameter as written, without its `;`: `type=INTERNET`, `PREF=1`, `X-FOO="a;b"`.
    var parameters: [String]

    /// The header of an unfolded content line: up to the `:` before the value, found as
    /// ``ContentLineParser`` finds it (a double quote opens only at the start of a parameter
    /// value, and may hold `:`, `;` and `,`), so that the parameters kept are the ones it read.
    init(line: [UInt8]) {
        let colon = UInt8(ascii: ":")
        let semicolon = UInt8(ascii: ";")
        let count = line.count
        var index = 0
        while index < count, line[index] != colon, line[index] != semicolon { index += 1 }
        name = String(decoding: line[0..<index], as: UTF8.self)
        parameters = []
        while index < count, line[index] == semicolon {
            let start = index + 1
            index = start
            while index < count, line[index] != UInt8(ascii: "="), line[index] != semicolon, line[index] != colon {
                index += 1
            }
            if index < count, line[index] == UInt8(ascii: "=") {
                index += 1
                while true {
                    if index < count, line[index] == UInt8(ascii: "\""),
                        let close = line[(index + 1)...].firstIndex(of: UInt8(ascii: "\""))
                    {
                        index = close + 1
                    } else {
                        while index < count, line[index] != UInt8(ascii: ","), line[index] != semicolon,
                            line[index] != colon
                        {
                            index += 1
                        }
                    }
                    guard index < count, line[index] == UInt8(ascii: ",") else { break }
                    index += 1
                }
            }
            if index > start { parameters.append(String(decoding: line[start..<index], as: UTF8.self)) }
        }
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
