/// Parses one unfolded content line, `[group.]NAME[;PARAM=value…]:value`, where it lies in a
/// card's bytes, and decodes its value there: quoted-printable undone in place, base64 decoded
/// after the card's bytes, text converted to UTF-8 from its `CHARSET` (or from Windows-1252 when
/// it is not valid UTF-8 and names no charset). A charset the system does not know, or a value
/// that is not valid in its charset, is read as UTF-8 where it is valid, else as Latin-1, and
/// said in a warning: never mojibake in silence.
///
/// It finds offsets (``PropertyLayout``), never strings: the name, the parameters and the value
/// become strings only when someone asks (``PropertyBytes``). The bytes are checked as UTF-8
/// once, here.
struct ContentLineParser {
    /// Made when first needed: most lines are ASCII or UTF-8 and never need iconv.
    let converter: CharsetConverter?

    private enum Transfer { case none, quotedPrintable, base64 }

    /// What a line is.
    enum Outcome {
        /// A property.
        case property(PropertyLayout)
        /// A property whose value cannot be decoded (not base64): its line is whole
        /// (`rawEnd`), and may be kept as it was.
        case damaged(PropertyLayout, VCardProblem)
        /// Not a property (no name, no `:`, an unclosed quote).
        case failure(VCardProblem)
    }

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
        var arena = bytes
        switch parse(in: &arena, start: 0, end: bytes.count, line: line, version: version, warnings: &warnings) {
        case .property(let layout):
            return .success(VCardProperty(PropertyBytes(bytes: arena, layout: layout), line: line))
        case .damaged(_, let problem), .failure(let problem): return .failure(problem)
        }
    }

    /// The header of a line: where its parts are, and what its parameters ask of the value.
    private struct Header {
        var nameStart: Int
        var nameEnd: Int
        var colon: Int
        var transfer = Transfer.none
        var charset: String?
        var transferParameters = false
        /// A parameter other than the transfer ones (which may still read as none).
        var otherParameters = false
    }

    /// Parses the line `arena[start..<end]`, decoding its value in place or after the end of
    /// `arena` (what is appended belongs to this property).
    func parse(
        in arena: inout [UInt8], start: Int, end: Int, line: Int, version: VCardVersion?,
        warnings: inout [VCardProblem]
    ) -> Outcome {
        let scanned: Result<Header, VCardProblem> = arena.withUnsafeBufferPointer { bytes in
            Self.header(bytes, start: start, end: end, line: line, version: version)
        }
        let header: Header
        switch scanned {
        case .failure(let problem): return .failure(problem)
        case .success(let found): header = found
        }
        var flags: PropertyLayout.Flags = version == .v21 ? [.version21] : []
        if header.transferParameters { flags.insert(.transferParameters) }
        if header.otherParameters { flags.insert(.otherParameters) }
        var layout = PropertyLayout(
            start: Int32(start), nameStart: Int32(header.nameStart), nameEnd: Int32(header.nameEnd),
            colon: Int32(header.colon), valueStart: Int32(header.colon + 1), valueEnd: Int32(end), rawEnd: Int32(end),
            flags: flags, line: line)
        let valueStart = header.colon + 1
        switch header.transfer {
        case .base64:
            let decoded = arena.withUnsafeBufferPointer { bytes in
                TransferEncoding.base64Decode(buffer: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]))
            }
            guard let decoded else {
                layout.flags.insert(.damaged)
                return .damaged(
                    layout, VCardProblem(line: line, "\(name(arena, header)): the base64 value is not valid base64"))
            }
            layout.valueStart = Int32(arena.count)
            arena.append(contentsOf: decoded)
            layout.valueEnd = Int32(arena.count)
            layout.flags.insert(.binary)
        case .quotedPrintable:
            let decodedEnd = arena.withUnsafeMutableBufferPointer { bytes in
                TransferEncoding.quotedPrintableDecode(inPlace: bytes, from: valueStart, to: end)
            }
            var range = decodeValue(
                &arena, valueStart..<decodedEnd, charset: header.charset, header: header, line: line,
                warnings: &warnings)
            range = Self.escapingLineBreaks(&arena, range)
            (layout.valueStart, layout.valueEnd) = (Int32(range.lowerBound), Int32(range.upperBound))
        case .none:
            let range = decodeValue(
                &arena, valueStart..<end, charset: header.charset, header: header, line: line, warnings: &warnings)
            (layout.valueStart, layout.valueEnd) = (Int32(range.lowerBound), Int32(range.upperBound))
        }
        return .property(layout)
    }

    /// Where the parts of the line are, or why it is not a property line.
    private static func header(
        _ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, line: Int, version: VCardVersion?
    ) -> Result<Header, VCardProblem> {
        var index = start
        while index < end, isNameByte(bytes[index]) { index += 1 }
        guard index > start, index < end, bytes[index] == colon || bytes[index] == semicolon else {
            return .failure(notAProperty(bytes, start, end, line))
        }
        var nameStart = start
        var dotAt: Int?
        for position in start..<index where bytes[position] == dot { dotAt = position }
        if let dotAt {
            nameStart = dotAt + 1
            if nameStart == index || dotAt == start { return .failure(notAProperty(bytes, start, end, line)) }
        }
        var header = Header(nameStart: nameStart, nameEnd: index, colon: index)
        func named() -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<header.nameEnd]), as: UTF8.self)
        }
        while index < end, bytes[index] == semicolon {
            index += 1
            let parameterStart = index
            while index < end, bytes[index] != equals, bytes[index] != semicolon, bytes[index] != colon { index += 1 }
            let parameterEnd = index
            var firstValue: Range<Int>?
            var hasValues = false
            if index < end, bytes[index] == equals {
                index += 1
                while true {
                    if index < end, bytes[index] == quote {
                        let valueStart = index + 1
                        var valueEnd = valueStart
                        while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
                        guard valueEnd < end else {
                            return .failure(
                                VCardProblem(line: line, "\(named()): a quoted parameter value has no closing quote"))
                        }
                        if firstValue == nil { firstValue = valueStart..<valueEnd }
                        hasValues = true
                        index = valueEnd + 1
                    } else {
                        let valueStart = index
                        while index < end, bytes[index] != comma, bytes[index] != semicolon, bytes[index] != colon {
                            index += 1
                        }
                        if firstValue == nil { firstValue = valueStart..<index }
                        hasValues = true
                    }
                    if index < end, bytes[index] == comma {
                        index += 1
                        continue
                    }
                    break
                }
            } else if ParameterReader.isBlank(bytes, parameterStart, parameterEnd) {
                continue
            }
            if ParameterReader.matches(bytes, parameterStart, parameterEnd, "ENCODING") {
                header.transferParameters = true
                if let value = firstValue {
                    if matchesTrimmed(bytes, value, "QUOTED-PRINTABLE") {
                        header.transfer = .quotedPrintable
                    } else if matchesTrimmed(bytes, value, "B") || matchesTrimmed(bytes, value, "BASE64") {
                        header.transfer = .base64
                    }
                }
            } else if ParameterReader.matches(bytes, parameterStart, parameterEnd, "CHARSET") {
                header.transferParameters = true
                header.charset = firstValue.map {
                    ParameterReader.decode(bytes, $0.lowerBound, $0.upperBound, version21: version == .v21)
                }
            } else if hasValues {
                header.otherParameters = true
            } else {
                if ParameterReader.matches(bytes, parameterStart, parameterEnd, "QUOTED-PRINTABLE") {
                    header.transferParameters = true
                    header.transfer = .quotedPrintable
                } else if ParameterReader.matches(bytes, parameterStart, parameterEnd, "BASE64")
                    || ParameterReader.matches(bytes, parameterStart, parameterEnd, "B")
                {
                    header.transferParameters = true
                    header.transfer = .base64
                } else if ParameterReader.matches(bytes, parameterStart, parameterEnd, "8BIT")
                    || ParameterReader.matches(bytes, parameterStart, parameterEnd, "7BIT")
                {
                    header.transferParameters = true
                } else if (parameterStart..<parameterEnd).contains(where: {
                    bytes[$0] != comma && bytes[$0] != 32 && bytes[$0] != 9
                }) {
                    // A bare type (of only commas, it holds none).
                    header.otherParameters = true
                }
            }
        }
        guard index < end, bytes[index] == colon else {
            return .failure(VCardProblem(line: line, "\(named()): the line has no “:” before its value"))
        }
        header.colon = index
        return .success(header)
    }

    /// Whether `bytes[range]`, trimmed of spaces and tabs, is `upper` ignoring ASCII case.
    private static func matchesTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ upper: StaticString)
        -> Bool
    {
        var from = range.lowerBound
        var to = range.upperBound
        while from < to, bytes[from] == 32 || bytes[from] == 9 { from += 1 }
        while to > from, bytes[to - 1] == 32 || bytes[to - 1] == 9 { to -= 1 }
        guard to - from == upper.utf8CodeUnitCount else { return false }
        let word = upper.utf8Start
        for offset in 0..<(to - from) {
            let byte = bytes[from + offset]
            guard (byte >= 97 && byte <= 122 ? byte - 32 : byte) == word[offset] else { return false }
        }
        return true
    }

    private static func notAProperty(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ line: Int)
        -> VCardProblem
    {
        VCardProblem(
            line: line,
            "not a vCard property line (NAME:value): “\(preview(Array(bytes[start..<min(end, start + 41)])))”")
    }

    private func name(_ arena: [UInt8], _ header: Header) -> String {
        String(decoding: arena[header.nameStart..<header.nameEnd], as: UTF8.self)
    }

    /// The value `arena[range]` as UTF-8: as it is when it is (most values), else converted and
    /// appended to `arena`. In its `CHARSET`; when that charset is unknown or the bytes are not
    /// valid in it, UTF-8 where valid, else Latin-1 (every byte a character), with a warning.
    private func decodeValue(
        _ arena: inout [UInt8], _ range: Range<Int>, charset: String?, header: Header, line: Int,
        warnings: inout [VCardProblem]
    ) -> Range<Int> {
        let kind = arena.withUnsafeBufferPointer { TextDecoding.kind(UnsafeBufferPointer(rebasing: $0[range])) }
        guard let charset else {
            // Not UTF-8 and no charset: what Outlook and old phones wrote is Windows-1252, and
            // Latin-1 for the five bytes Windows-1252 leaves undefined.
            guard kind == .invalid else { return range }
            return Self.appending(&arena, range) { TextDecoding.appendWindows1252($0, to: &$1) }
        }
        let isUTF8 = CharsetConverter.isUTF8OrASCII(charset)
        if isUTF8 {
            if kind != .invalid { return range }
        } else if kind == .ascii, CharsetConverter.readsASCIIAsItself(charset) {
            return range
        }
        let converter = self.converter ?? CharsetConverter()
        if !isUTF8,
            let converted = arena.withUnsafeBufferPointer({
                converter.convert(UnsafeBufferPointer(rebasing: $0[range]), charset: charset)
            })
        {
            let from = arena.count
            arena.append(contentsOf: converted)
            return from..<arena.count
        }
        let shown = Self.preview(Array(charset.utf8))
        let message =
            converter.knows(charset)
            ? "\(name(arena, header)): the value is not valid \(shown); it is read as \(kind == .invalid ? "Latin-1" : "UTF-8")"
            : "CHARSET=\(shown) is not a charset this system knows: the card's values in it are read as UTF-8 where valid, else as Latin-1"
        if !warnings.contains(where: { $0.message == message }) {
            warnings.append(VCardProblem(line: line, message))
        }
        guard kind == .invalid else { return range }
        return Self.appending(&arena, range) { TextDecoding.appendLatin1($0, to: &$1) }
    }

    /// Appends what `convert` makes of `arena[range]` to `arena`; the range of what it appended.
    private static func appending(
        _ arena: inout [UInt8], _ range: Range<Int>,
        _ convert: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    ) -> Range<Int> {
        var out: [UInt8] = []
        arena.withUnsafeBufferPointer { convert(UnsafeBufferPointer(rebasing: $0[range]), &out) }
        let from = arena.count
        arena.append(contentsOf: out)
        return from..<arena.count
    }

    /// Quoted-printable text may hold real line breaks (`=0D=0A`); in a content line they are
    /// `\n` (CR LF, a lone CR and a lone LF alike). The escaped text is appended when needed.
    private static func escapingLineBreaks(_ arena: inout [UInt8], _ range: Range<Int>) -> Range<Int> {
        let hasBreak = arena.withUnsafeBufferPointer { bytes in
            bytes[range].contains { $0 == 10 || $0 == 13 }
        }
        guard hasBreak else { return range }
        var out: [UInt8] = []
        out.reserveCapacity(range.count + 8)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = arena[index]
            if byte == 13 || byte == 10 {
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "n"))
                if byte == 13, index + 1 < range.upperBound, arena[index + 1] == 10 { index += 1 }
            } else {
                out.append(byte)
            }
            index += 1
        }
        let from = arena.count
        arena.append(contentsOf: out)
        return from..<arena.count
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// The first characters of a line, control characters replaced, for a problem message.
    static func preview(_ bytes: [UInt8]) -> String {
        let head = String(decoding: bytes.prefix(40), as: UTF8.self)
        let cleaned = String(
            head.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "·" : Character($0) })
        return bytes.count > 40 ? cleaned + "…" : cleaned
    }
}
