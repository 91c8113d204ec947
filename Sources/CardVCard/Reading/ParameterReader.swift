/// The parameters of a property, read from the bytes between its name and its `:` when they are
/// first asked for (``PropertyBytes/parameters``). The parser has checked the structure then
/// (quotes closed, the `:` found), so this never fails.
///
/// Names are upper-cased (spaces and tabs inside them dropped), values unquoted and trimmed of
/// spaces and tabs, RFC 6868 carets read outside vCard 2.1, text that is not UTF-8 read as
/// Windows-1252; repeated parameters are merged, vCard 2.1's bare parameters are `TYPE` values,
/// and a `TYPE` value is always split at its commas. `ENCODING`, `CHARSET` and the bare
/// transfer words are not parameters: the parser undid what they say.
enum ParameterReader {
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let colon = UInt8(ascii: ":")

    /// The parameters in `header` (from the first `;` to before the `:`).
    static func parameters(_ header: UnsafeBufferPointer<UInt8>, version21: Bool) -> [VCardParameter] {
        var parameters: [VCardParameter] = []
        let count = header.count
        var index = 0
        while index < count, header[index] == semicolon {
            index += 1
            let nameStart = index
            while index < count, header[index] != equals, header[index] != semicolon, header[index] != colon {
                index += 1
            }
            let nameEnd = index
            var values: [String] = []
            let isType = matches(header, nameStart, nameEnd, "TYPE")
            if index < count, header[index] == equals {
                index += 1
                while true {
                    if index < count, header[index] == quote {
                        let start = index + 1
                        var end = start
                        while end < count, header[end] != quote { end += 1 }
                        let text = decode(header, start, end, version21: version21)
                        if isType {
                            values += splitList(text)
                        } else {
                            values.append(text)
                        }
                        index = min(count, end + 1)
                    } else {
                        let start = index
                        while index < count, header[index] != comma, header[index] != semicolon, header[index] != colon
                        {
                            index += 1
                        }
                        values.append(decode(header, start, index, version21: version21))
                    }
                    if index < count, header[index] == comma {
                        index += 1
                        continue
                    }
                    break
                }
            } else if isBlank(header, nameStart, nameEnd) {
                continue
            }
            if isTransferParameter(header, nameStart, nameEnd, hasValues: !values.isEmpty) { continue }
            // vCard 2.1's bare parameters (`TEL;WORK;VOICE`) are types.
            // A TYPE value never holds a comma: a list is always split.
            let key: String
            let list: [String]
            if values.isEmpty {
                key = "TYPE"
                // As written up to here (a quoted TYPE that held no value included).
                list = splitList(decode(header, nameStart, index, version21: version21))
            } else {
                key = upperName(header, nameStart, nameEnd)
                list = values
            }
            if list.isEmpty { continue }
            if let existing = parameters.firstIndex(where: { $0.name == key }) {
                parameters[existing].values += list
            } else {
                parameters.append(VCardParameter(name: key, values: list))
            }
        }
        return parameters
    }

    /// Whether the parameter named by `header[start..<end]` is `ENCODING`, `CHARSET`, or (without
    /// a value) one of the bare transfer words `QUOTED-PRINTABLE`, `BASE64`, `B`, `8BIT`, `7BIT`.
    static func isTransferParameter(
        _ header: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hasValues: Bool
    ) -> Bool {
        if matches(header, start, end, "ENCODING") || matches(header, start, end, "CHARSET") { return true }
        guard !hasValues else { return false }
        return matches(header, start, end, "QUOTED-PRINTABLE") || matches(header, start, end, "BASE64")
            || matches(header, start, end, "B") || matches(header, start, end, "8BIT")
            || matches(header, start, end, "7BIT")
    }

    /// Whether `header[start..<end]`, without spaces and tabs and ignoring ASCII case, is `upper`.
    static func matches(_ header: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ upper: StaticString) -> Bool {
        let word = upper.utf8Start
        let count = upper.utf8CodeUnitCount
        var matched = 0
        var index = start
        while index < end {
            let byte = header[index]
            index += 1
            if byte == 32 || byte == 9 { continue }
            guard matched < count, (byte >= 97 && byte <= 122 ? byte - 32 : byte) == word[matched] else {
                return false
            }
            matched += 1
        }
        return matched == count
    }

    static func isBlank(_ header: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if header[index] != 32, header[index] != 9 { return false }
            index += 1
        }
        return true
    }

    /// The name upper-cased, spaces and tabs dropped.
    static func upperName(_ header: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        for index in start..<end {
            let byte = header[index]
            if byte == 32 || byte == 9 { continue }
            out.append(byte >= 97 && byte <= 122 ? byte - 32 : byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` split at its commas, each part trimmed, empty ones left out.
    static func splitList(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingVCardWhitespace }.filter { !$0.isEmpty }
    }

    /// A parameter value: spaces and tabs trimmed; UTF-8, or Windows-1252 when it is not; RFC
    /// 6868's `^n`, `^'` and `^^` read outside vCard 2.1.
    static func decode(_ header: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, version21: Bool) -> String {
        var from = start
        var to = end
        while from < to, header[from] == 32 || header[from] == 9 { from += 1 }
        while to > from, header[to - 1] == 32 || header[to - 1] == 9 { to -= 1 }
        let slice = UnsafeBufferPointer(rebasing: header[from..<to])
        let text = TextDecoding.string(slice)
        guard !version21, slice.contains(UInt8(ascii: "^")) else { return text }
        var out = ""
        var caret = false
        for character in text {
            if caret {
                caret = false
                switch character {
                case "n": out.append("\n")
                case "'": out.append("\"")
                case "^": out.append("^")
                default:
                    out.append("^")
                    out.append(character)
                }
            } else if character == "^" {
                caret = true
            } else {
                out.append(character)
            }
        }
        if caret { out.append("^") }
        return out
    }
}
