/// Parses one unfolded content line, `[group.]NAME[;PARAM=value…]:value`, from its bytes, and
/// decodes its value: quoted-printable and base64 undone, text converted to UTF-8 from its
/// `CHARSET` (or from Windows-1252 when it is not valid UTF-8 and names no charset). A charset
/// the system does not know, or a value that is not valid in its charset, is read as UTF-8 where
/// it is valid, else as Latin-1, and said in a warning: never mojibake in silence.
struct ContentLineParser {
    /// Made when first needed: most lines are ASCII or UTF-8 and never need iconv.
    let converter: CharsetConverter?

    private enum Transfer { case none, quotedPrintable, base64 }

    private static let colon = UInt8(ascii: ":")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")
    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let dot = UInt8(ascii: ".")

    /// The property on `bytes`, or the problem that makes it unreadable.
    func parse(_ bytes: [UInt8], line: Int, version: VCardVersion?) -> Result<VCardProperty, VCardProblem> {
        var ignored: [VCardProblem] = []
        return parse(bytes, line: line, version: version, warnings: &ignored)
    }

    /// The property on `bytes`, or the problem that makes it unreadable; what was read only by
    /// a fallback (a charset unknown, a value not valid in its charset) is added to `warnings`,
    /// once per card for each message.
    func parse(_ bytes: [UInt8], line: Int, version: VCardVersion?, warnings: inout [VCardProblem]) -> Result<
        VCardProperty, VCardProblem
    > {
        let count = bytes.count
        var index = 0
        while index < count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > 0, index < count, bytes[index] == Self.colon || bytes[index] == Self.semicolon else {
            return .failure(
                VCardProblem(line: line, "not a vCard property line (NAME:value): “\(Self.preview(bytes))”"))
        }
        let fullName = bytes[0..<index]
        var group: String?
        var nameBytes = fullName
        if let dot = fullName.lastIndex(of: Self.dot) {
            group = String(decoding: fullName[..<dot], as: UTF8.self)
            nameBytes = fullName[(dot + 1)...]
            if nameBytes.isEmpty || group?.isEmpty == true {
                return .failure(
                    VCardProblem(line: line, "not a vCard property line (NAME:value): “\(Self.preview(bytes))”"))
            }
        }
        let name = String(decoding: nameBytes, as: UTF8.self)

        var parameters: [VCardParameter] = []
        var transfer = Transfer.none
        var charset: String?
        while index < count, bytes[index] == Self.semicolon {
            index += 1
            let nameStart = index
            while index < count, bytes[index] != Self.equals, bytes[index] != Self.semicolon, bytes[index] != Self.colon
            {
                index += 1
            }
            let parameterName = Self.asciiUpper(bytes[nameStart..<index])
            var values: [String] = []
            if index < count, bytes[index] == Self.equals {
                index += 1
                while true {
                    if index < count, bytes[index] == Self.quote {
                        let start = index + 1
                        guard let end = bytes[start...].firstIndex(of: Self.quote) else {
                            return .failure(
                                VCardProblem(line: line, "\(name): a quoted parameter value has no closing quote"))
                        }
                        let text = decodeParameter(bytes[start..<end], version: version)
                        values +=
                            parameterName == "TYPE"
                            ? text.split(separator: ",").map { String($0).trimmingVCardWhitespace }.filter {
                                !$0.isEmpty
                            } : [text]
                        index = end + 1
                    } else {
                        let start = index
                        while index < count, bytes[index] != Self.comma, bytes[index] != Self.semicolon,
                            bytes[index] != Self.colon
                        {
                            index += 1
                        }
                        values.append(decodeParameter(bytes[start..<index], version: version))
                    }
                    if index < count, bytes[index] == Self.comma {
                        index += 1
                        continue
                    }
                    break
                }
            } else if parameterName.isEmpty {
                continue
            }
            switch parameterName {
            case "ENCODING":
                switch values.first?.uppercased() ?? "" {
                case "QUOTED-PRINTABLE": transfer = .quotedPrintable
                case "B", "BASE64": transfer = .base64
                default: break
                }
            case "CHARSET":
                charset = values.first
            case "QUOTED-PRINTABLE" where values.isEmpty:
                transfer = .quotedPrintable
            case "BASE64" where values.isEmpty, "B" where values.isEmpty:
                transfer = .base64
            case "8BIT" where values.isEmpty, "7BIT" where values.isEmpty:
                break
            default:
                // vCard 2.1's bare parameters (`TEL;WORK;VOICE`) are types.
                // A TYPE value never holds a comma: a list is always split.
                let bare = decodeParameter(bytes[nameStart..<index], version: version)
                let (key, list) =
                    values.isEmpty
                    ? (
                        "TYPE",
                        bare.split(separator: ",").map { String($0).trimmingVCardWhitespace }.filter { !$0.isEmpty }
                    ) : (parameterName, values)
                if list.isEmpty { continue }
                if let existing = parameters.firstIndex(where: { $0.name == key }) {
                    parameters[existing].values += list
                } else {
                    parameters.append(VCardParameter(name: key, values: list))
                }
            }
        }
        guard index < count, bytes[index] == Self.colon else {
            return .failure(VCardProblem(line: line, "\(name): the line has no “:” before its value"))
        }
        let raw = bytes[(index + 1)...]

        var property = VCardProperty(group: group, name: name, parameters: parameters, value: "", line: line)
        switch transfer {
        case .base64:
            guard let decoded = TransferEncoding.base64Decode(raw) else {
                return .failure(VCardProblem(line: line, "\(name): the base64 value is not valid base64"))
            }
            property.binary = decoded
        case .quotedPrintable:
            let decoded = TransferEncoding.quotedPrintableDecode(raw)
            property.value = Self.escapingLineBreaks(
                decodeValue(decoded[...], charset: charset, name: name, line: line, warnings: &warnings))
        case .none:
            property.value = decodeValue(raw, charset: charset, name: name, line: line, warnings: &warnings)
        }
        return .success(property)
    }

    /// A value's text in its `CHARSET`; when that charset is unknown or the bytes are not valid
    /// in it, UTF-8 where valid, else Latin-1 (every byte a character), with a warning.
    private func decodeValue(
        _ bytes: ArraySlice<UInt8>, charset: String?, name: String, line: Int, warnings: inout [VCardProblem]
    ) -> String {
        guard let charset else { return decodeText(bytes, charset: nil) }
        if !CharsetConverter.readsASCIIAsItself(charset) || !bytes.allSatisfy({ $0 < 0x80 }) {
            let converter = self.converter ?? CharsetConverter()
            if let text = converter.utf8(Array(bytes), charset: charset) { return text }
            let valid = String(validating: bytes, as: UTF8.self)
            let text = valid ?? TransferEncoding.latin1(bytes)
            let shown = ContentLineParser.preview(Array(charset.utf8))
            let message =
                converter.knows(charset)
                ? "\(name): the value is not valid \(shown); it is read as \(valid == nil ? "Latin-1" : "UTF-8")"
                : "CHARSET=\(shown) is not a charset this system knows: the card's values in it are read as UTF-8 where valid, else as Latin-1"
            if !warnings.contains(where: { $0.message == message }) {
                warnings.append(VCardProblem(line: line, message))
            }
            return text
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text in `charset` (or UTF-8, or Windows-1252 when it is not valid UTF-8) as a String.
    func decodeText(_ bytes: ArraySlice<UInt8>, charset: String?) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        let converter = self.converter ?? CharsetConverter()
        if let charset, let text = converter.utf8(Array(bytes), charset: charset) { return text }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // Not UTF-8 and no (known) charset: what Outlook and old phones wrote is Windows-1252,
        // and Latin-1 for the five bytes Windows-1252 leaves undefined.
        if let text = converter.utf8(Array(bytes), charset: "WINDOWS-1252") { return text }
        return TransferEncoding.latin1(bytes)
    }

    private func decodeParameter(_ bytes: ArraySlice<UInt8>, version: VCardVersion?) -> String {
        var trimmed = bytes
        while let first = trimmed.first, first == 32 || first == 9 { trimmed.removeFirst() }
        while let last = trimmed.last, last == 32 || last == 9 { trimmed.removeLast() }
        let text = decodeText(trimmed, charset: nil)
        guard version != .v21, trimmed.contains(UInt8(ascii: "^")) else { return text }
        // RFC 6868 (for 4.0, and read in 3.0 too, where a literal ^ is rare): ^n is a line break,
        // ^' a double quote, ^^ a caret.
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

    /// Quoted-printable text may hold real line breaks (`=0D=0A`); in a content line they are `\n`.
    private static func escapingLineBreaks(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var out = ""
        for character in text {
            if character == "\r\n" || character == "\n" || character == "\r" {
                out += "\\n"
            } else {
                out.append(character)
            }
        }
        return out
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    private static func asciiUpper(_ bytes: ArraySlice<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        for byte in bytes where byte != 32 && byte != 9 {
            out.append(byte >= 97 && byte <= 122 ? byte - 32 : byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first characters of a line, control characters replaced, for a problem message.
    static func preview(_ bytes: [UInt8]) -> String {
        let head = String(decoding: bytes.prefix(40), as: UTF8.self)
        let cleaned = String(
            head.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "·" : Character($0) })
        return bytes.count > 40 ? cleaned + "…" : cleaned
    }
}
