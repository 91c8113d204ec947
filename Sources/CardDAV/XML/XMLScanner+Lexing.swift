import Foundation

/// The lexical pieces of ``XMLScanner``: names, attribute values, white space, literals, and
/// the failure with its line and column.
extension XMLScanner {
    mutating func readName() throws(XMLFailure) -> String {
        let start = position
        guard position < bytes.count, Self.isNameStartByte(bytes[position]) else {
            throw failure(position < bytes.count ? .malformed("a tag without a valid name") : .unexpectedEnd)
        }
        while position < bytes.count, Self.isNameByte(bytes[position]) {
            position += 1
            if position - start > limits.maximumNameBytes {
                throw failure(.limitExceeded("bytes in a name", limit: limits.maximumNameBytes))
            }
        }
        guard let name = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        else {
            throw failure(.unsupportedEncoding("invalid UTF-8 in a name"))
        }
        return name
    }

    mutating func readAttributeValue() throws(XMLFailure) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else {
            throw failure(.malformed("an attribute value must be quoted"))
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw failure(.unexpectedEnd) }
            let byte = bytes[position]
            if byte == quote {
                position += 1
                break
            }
            switch byte {
            case UInt8(ascii: "<"):
                throw failure(.malformed("“<” inside an attribute value"))
            case UInt8(ascii: "&"):
                value.append(contentsOf: try readReference())
            case 0x0D:
                // Attribute-value normalisation: CR LF, CR, LF and tab each become a space.
                value.append(0x20)
                position += position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1
            case 0x0A, 0x09:
                value.append(0x20)
                position += 1
            default:
                value.append(byte)
                position += 1
            }
            if value.count > limits.maximumTextBytes {
                throw failure(.limitExceeded("bytes in an attribute value", limit: limits.maximumTextBytes))
            }
        }
        guard let string = String(validating: value, as: UTF8.self) else {
            throw failure(.unsupportedEncoding("invalid UTF-8 in an attribute value"))
        }
        return string
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        return position > start
    }

    func matches(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    func matchesIgnoringCase(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] | 0x20 != pointer[offset] | 0x20 { return false }
        return true
    }

    /// The index where `literal` next starts at or after `start`, or `nil`.
    func find(_ literal: StaticString, from start: Int) -> Int? {
        let first = literal.utf8Start[0]
        var index = start
        while index < bytes.count {
            if bytes[index] == first, matches(literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// A failure at the current position, with its line and column.
    func failure(_ reason: XMLFailure.Reason) -> XMLFailure {
        var line = 1
        var lineStart = 0
        let end = min(position, bytes.count)
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return XMLFailure(reason, line: line, column: end - lineStart + 1)
    }

    /// `value` in `name="value"` inside an XML declaration's text.
    static func pseudoAttribute(_ name: String, in body: String) -> String? {
        guard let range = body.range(of: name) else { return nil }
        let rest = body[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Letters, `_`, `:` and any byte of a multi-byte UTF-8 character.
    static func isNameStartByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStartByte(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}
