/// Where one property's parts are in its card's bytes (``PropertyBytes``), as the parser found
/// them: offsets, not strings.
struct PropertyLayout: Sendable {
    /// The first byte of the line: its group, or its name.
    var start: Int32
    /// The first byte of the name (after `group.`).
    var nameStart: Int32
    /// After the name: its first `;` or the `:`.
    var nameEnd: Int32
    /// The `:` that ends the parameters.
    var colon: Int32
    /// The value: text (UTF-8, escapes kept) or, for a binary value, its decoded bytes.
    var valueStart: Int32
    var valueEnd: Int32
    /// The line as it was, for a damaged property kept as it is.
    var rawEnd: Int32
    var flags: Flags
    /// The line it starts on.
    var line: Int

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        /// The value is decoded base64: ``VCardProperty/binary``.
        static let binary = Flags(rawValue: 1)
        /// Read in a vCard 2.1 card: no RFC 6868 carets in parameter values.
        static let version21 = Flags(rawValue: 2)
        /// The parameters hold `ENCODING`, `CHARSET` or a bare transfer word, which are not
        /// among ``VCardProperty/parameters``.
        static let transferParameters = Flags(rawValue: 4)
        /// The value could not be decoded; the line is kept as it was.
        static let damaged = Flags(rawValue: 8)
        /// A parameter other than the transfer ones: ``VCardProperty/parameters`` is not empty.
        static let otherParameters = Flags(rawValue: 16)
    }

    var hasParameters: Bool { colon > nameEnd }

    /// Whether the name is `upper` (upper-case ASCII), ignoring ASCII case, in the card's
    /// `bytes`.
    func nameEquals(_ upper: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var upper = upper
        let count = Int(nameEnd - nameStart)
        guard upper.utf8.count == count else { return false }
        return upper.withUTF8 { word in
            var index = Int(nameStart)
            for offset in 0..<count {
                let byte = bytes[index]
                guard (byte >= 97 && byte <= 122 ? byte - 32 : byte) == word[offset] else { return false }
                index += 1
            }
            return true
        }
    }
}

/// A property as a view of its card's bytes: the reader's properties share one array per card,
/// and their strings are made only when asked for.
struct PropertyBytes: Sendable {
    let bytes: [UInt8]
    let layout: PropertyLayout
    /// Why the value could not be decoded (a damaged property kept as its line).
    let damage: String?

    init(bytes: [UInt8], layout: PropertyLayout, damage: String? = nil) {
        self.bytes = bytes
        self.layout = layout
        self.damage = damage
    }

    static let prefWord: StaticString = "PREF"
    static let walletWord: StaticString = "X-CARDWALLET-"

    func string(_ start: Int32, _ end: Int32) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(end)]), as: UTF8.self)
        }
    }

    var group: String? {
        layout.nameStart > layout.start ? string(layout.start, layout.nameStart - 1) : nil
    }

    var name: String { string(layout.nameStart, layout.nameEnd) }

    /// The name upper-cased (names are ASCII: letters, digits, `-` and `_`).
    var key: String {
        bytes.withUnsafeBufferPointer { buffer in
            let name = buffer[Int(layout.nameStart)..<Int(layout.nameEnd)]
            return String(unsafeUninitializedCapacity: name.count) { out in
                for (offset, byte) in name.enumerated() { out[offset] = byte >= 97 && byte <= 122 ? byte - 32 : byte }
                return name.count
            }
        }
    }

    /// Whether the name is `upper` (upper-case ASCII), ignoring ASCII case.
    func nameEquals(_ upper: String) -> Bool {
        bytes.withUnsafeBufferPointer { layout.nameEquals(upper, in: $0) }
    }

    /// The name's bytes.
    func withName<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[Int(layout.nameStart)..<Int(layout.nameEnd)]))
        }
    }

    /// Whether the parameters hold `upper` (upper-case ASCII) anywhere, ignoring ASCII case.
    func headerMentions(_ upper: StaticString) -> Bool {
        guard layout.hasParameters else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            ByteSearch.contains(
                UnsafeBufferPointer(rebasing: buffer[Int(layout.nameEnd)..<Int(layout.colon)]), upper)
        }
    }

    var parameters: [VCardParameter] {
        guard layout.flags.contains(.otherParameters) else { return [] }
        return bytes.withUnsafeBufferPointer { buffer in
            ParameterReader.parameters(
                UnsafeBufferPointer(rebasing: buffer[Int(layout.nameEnd)..<Int(layout.colon)]),
                version21: layout.flags.contains(.version21))
        }
    }

    var value: String {
        layout.flags.contains(.binary) ? "" : string(layout.valueStart, layout.valueEnd)
    }

    var binary: [UInt8]? {
        layout.flags.contains(.binary) ? Array(bytes[Int(layout.valueStart)..<Int(layout.valueEnd)]) : nil
    }

    /// The value's bytes (decoded text, escapes kept; or the binary).
    func withValue<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[Int(layout.valueStart)..<Int(layout.valueEnd)]))
        }
    }

    var text: String {
        layout.flags.contains(.binary) ? "" : withValue { VCardText.unescape(bytes: $0) }
    }

    func split(separator: UInt8) -> [String] {
        layout.flags.contains(.binary) ? [""] : withValue { VCardText.split(bytes: $0, separator: separator) }
    }

    /// Whether `[group.]NAME:value` as ``ContentLine/render(_:marker:)`` writes a property
    /// without parameters (with `value` instead of its own, when given) is `line`, compared on
    /// the bytes.
    func plainLine(equals line: String, value: String? = nil) -> Bool {
        var line = line
        var override = value
        return line.withUTF8 { text in
            bytes.withUnsafeBufferPointer { buffer in
                let start = Int(layout.start)
                let nameStart = Int(layout.nameStart)
                let nameEnd = Int(layout.nameEnd)
                func compare(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
                    guard text.count == nameEnd - start + 1 + value.count else { return false }
                    var at = 0
                    for index in start..<nameStart {
                        guard text[at] == buffer[index] else { return false }
                        at += 1
                    }
                    let extended =
                        nameEnd - nameStart >= 2 && (buffer[nameStart] | 0x20) == UInt8(ascii: "x")
                        && buffer[nameStart + 1] == UInt8(ascii: "-")
                    for index in nameStart..<nameEnd {
                        let byte = buffer[index]
                        guard text[at] == (!extended && byte >= 97 && byte <= 122 ? byte - 32 : byte) else {
                            return false
                        }
                        at += 1
                    }
                    guard text[at] == UInt8(ascii: ":") else { return false }
                    at += 1
                    for byte in value {
                        guard text[at] == byte else { return false }
                        at += 1
                    }
                    return true
                }
                if override != nil { return override!.withUTF8(compare) }
                return compare(UnsafeBufferPointer(rebasing: buffer[Int(layout.valueStart)..<Int(layout.valueEnd)]))
            }
        }
    }

    /// A `data:` URI value (`data:image/png;base64,…`, any case, white space around it): its
    /// decoded bytes, or `.some(nil)` when it is not base64; `nil` when the value is not a
    /// `data:` URI (or holds escapes: then the general path reads it).
    func dataURI() -> [UInt8]?? {
        guard !layout.flags.contains(.binary) else { return nil }
        return withValue { value -> [UInt8]?? in
            var from = 0
            var to = value.count
            while from < to, String.isASCIIWhitespace(value[from]) { from += 1 }
            while to > from, String.isASCIIWhitespace(value[to - 1]) { to -= 1 }
            let text = UnsafeBufferPointer(rebasing: value[from..<to])
            guard text.count >= 5, !text.contains(UInt8(ascii: "\\")),
                !text.contains(where: { $0 >= 0x80 }),
                ByteSearch.contains(UnsafeBufferPointer(rebasing: text[0..<5]), "DATA:")
            else { return nil }
            guard let comma = text.firstIndex(of: UInt8(ascii: ",")), comma >= 7,
                ByteSearch.contains(UnsafeBufferPointer(rebasing: text[(comma - 7)..<comma]), ";BASE64"),
                let decoded = TransferEncoding.base64Decode(buffer: UnsafeBufferPointer(rebasing: text[(comma + 1)...]))
            else { return .some(nil) }
            return .some(decoded)
        }
    }

    /// The line as it was read (unfolded), for a damaged property.
    var raw: String { string(layout.start, layout.rawEnd) }
}

/// Case-insensitive search of ASCII words in bytes.
enum ByteSearch {
    /// Whether `bytes` hold `upper` (upper-case ASCII), ignoring ASCII case.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ upper: StaticString) -> Bool {
        let count = upper.utf8CodeUnitCount
        guard bytes.count >= count, count > 0 else { return count == 0 }
        let word = upper.utf8Start
        let first = word[0]
        let firstLower = first >= 65 && first <= 90 ? first + 32 : first
        var index = 0
        let last = bytes.count - count
        while index <= last {
            let byte = bytes[index]
            if byte == first || byte == firstLower {
                var matched = 1
                while matched < count {
                    let next = bytes[index + matched]
                    guard (next >= 97 && next <= 122 ? next - 32 : next) == word[matched] else { break }
                    matched += 1
                }
                if matched == count { return true }
            }
            index += 1
        }
        return false
    }
}
