import Foundation

/// Hides the values of sensitive JSON fields at any depth by scanning the text once, without
/// parsing it into objects: formatting is kept, and a body cut short still redacts correctly.
///
/// A string followed by `:` is a key; when its (unescaped) name is sensitive, the value that
/// follows — string, number, literal, object or array — is replaced by `"<private>"`.
struct JSONRedactor {
    let redaction: Redaction

    /// The redacted text, at most about `limit` bytes of it, and whether it was cut short.
    func redact<Bytes: RandomAccessCollection>(
        _ bytes: Bytes,
        limit: Int,
        secrets: inout [String]
    ) -> (text: [UInt8], truncated: Bool) where Bytes.Element == UInt8, Bytes.Index == Int {
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count, limit) + 16)
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            if output.count >= limit { return (output, true) }
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\"") else {
                output.append(byte)
                index += 1
                continue
            }
            let stringEnd = Self.endOfString(bytes, from: index)
            output.append(contentsOf: bytes[index..<stringEnd])
            var next = Self.skipWhitespace(bytes, from: stringEnd)
            guard next < end, bytes[next] == UInt8(ascii: ":"),
                redaction.isSensitive(name: Self.unescaped(bytes[index..<stringEnd]))
            else {
                index = stringEnd
                continue
            }
            // A sensitive key: copy `:` and the whitespace around it, then replace the value.
            output.append(contentsOf: bytes[stringEnd...next])
            next += 1
            let valueStart = Self.skipWhitespace(bytes, from: next)
            output.append(contentsOf: bytes[next..<valueStart])
            let valueEnd = Self.endOfValue(bytes, from: valueStart)
            if valueStart < end, bytes[valueStart] == UInt8(ascii: "\"") {
                Redaction.collect(Self.unescaped(bytes[valueStart..<valueEnd]), into: &secrets)
            }
            output.append(contentsOf: Array("\"\(Redaction.placeholder)\"".utf8))
            index = valueEnd
        }
        return (output, false)
    }

    /// The index just past the string starting with `"` at `start` (or the end, if unterminated).
    static func endOfString<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = start + 1
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.endIndex
    }

    static func skipWhitespace<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = start
        while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// The index just past the JSON value starting at `start`.
    static func endOfValue<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard start < bytes.endIndex else { return bytes.endIndex }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.endIndex {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.endIndex
        default:
            var index = start
            while index < bytes.endIndex,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(
                    bytes[index])
            {
                index += 1
            }
            return index
        }
    }

    /// The text of a JSON string token (with its quotes), escapes decoded.
    static func unescaped<Bytes: Collection>(_ token: Bytes) -> String where Bytes.Element == UInt8 {
        var content = Array(token.dropFirst())
        if content.last == UInt8(ascii: "\"") { content.removeLast() }
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        let quoted = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: content, as: UTF8.self)
    }
}
