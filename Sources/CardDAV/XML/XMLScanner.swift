/// One thing the scanner found: an element opening (a self-closing tag gives a start and an
/// end), the text inside an element, or an element closing.
enum XMLEvent: Equatable {
    /// An element opens; its name and attributes are namespace-resolved.
    case start(XMLName, attributes: [XMLAttribute])
    /// Character data and CDATA between two tags, entities decoded, line ends normalised to LF.
    case text(String)
    /// The element opened last closes.
    case end(XMLName)
}

/// An attribute, namespace-resolved (an attribute without a prefix has no namespace).
struct XMLAttribute: Equatable {
    var name: XMLName
    var value: String
}

/// A pull parser for the XML that DAV servers send, written for this: it processes no DTD at
/// all — `<!DOCTYPE` stops it at once, so no entity is ever defined, expanded or fetched and
/// nothing is read from disk — and decodes only XML's five predefined entities and numeric
/// character references. It checks every cap of ``XMLLimits`` as it goes, resolves namespaces,
/// and keeps nothing but the open elements and the text of the current run.
///
/// It reads UTF-8 only (the encoding every DAV server sends; a declaration of another is
/// refused). It works on the bytes in place, so the caller keeps them alive: use it inside
/// `withUnsafeBytes` (``XMLDocumentReader/read(_:limits:root:child:)`` does).
struct XMLScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: XMLLimits
    var position = 0
    /// The open elements: the raw qualified name and how many namespace bindings it added.
    private var open: [(qualified: String, name: XMLName, bindings: Int)] = []
    /// Namespace bindings in scope, innermost last; `xml` is always bound.
    private var bindings: [(prefix: String, namespace: String)] = [("xml", "http://www.w3.org/XML/1998/namespace")]
    private var text: [UInt8] = []
    private var pendingEnd: XMLName?
    private var elements = 0
    private var rootClosed = false

    /// A scanner over `bytes`.
    ///
    /// - Throws: ``XMLFailure`` when the document is larger than ``XMLLimits/maximumBytes``.
    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: XMLLimits) throws(XMLFailure) {
        self.bytes = bytes
        self.limits = limits
        if bytes.count > limits.maximumBytes {
            throw XMLFailure(.limitExceeded("bytes", limit: limits.maximumBytes), line: 1, column: 1)
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw XMLFailure(.unsupportedEncoding("UTF-16"), line: 1, column: 1)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// How deep the scanner is: the number of open elements.
    var depth: Int { open.count }

    /// The next event, or `nil` at the end of a well-formed document.
    ///
    /// - Throws: ``XMLFailure`` at the first problem.
    mutating func next() throws(XMLFailure) -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            try close()
            return .end(name)
        }
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                try readCharacterData()
                continue
            }
            let next = position + 1 < bytes.count ? bytes[position + 1] : 0
            switch next {
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                try readDeclaration()
            case UInt8(ascii: "/"):
                if let event = try flushedText() { return event }
                return try readEndTag()
            default:
                if let event = try flushedText() { return event }
                return try readStartTag()
            }
        }
        if !open.isEmpty || !text.isEmpty { throw failure(.unexpectedEnd) }
        if !rootClosed { throw failure(.malformed("there is no root element")) }
        return nil
    }

    // MARK: Text

    /// The text gathered since the last tag, as an event, or `nil` when there is none.
    private mutating func flushedText() throws(XMLFailure) -> XMLEvent? {
        guard !text.isEmpty else { return nil }
        defer { text.removeAll(keepingCapacity: true) }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw failure(.unsupportedEncoding("invalid UTF-8 in text"))
        }
        return .text(string)
    }

    /// Character data up to the next `<`, decoded into ``text``.
    private mutating func readCharacterData() throws(XMLFailure) {
        if open.isEmpty {
            // Outside the root only white space may appear.
            while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
                guard Self.isSpace(bytes[position]) else {
                    throw failure(
                        .malformed(rootClosed ? "text after the root element" : "text before the root element"))
                }
                position += 1
            }
            return
        }
        while position < bytes.count {
            // Copy the run up to the next byte that needs a look in one go.
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D { break }
                position += 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
            if position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "&"):
                    text.append(contentsOf: try readReference())
                case 0x0D:
                    // XML's end-of-line handling: CR LF and a lone CR become LF.
                    text.append(0x0A)
                    position += position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1
                default:
                    break
                }
            }
            if text.count > limits.maximumTextBytes {
                throw failure(.limitExceeded("bytes of text in one element", limit: limits.maximumTextBytes))
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "<") { return }
        }
    }

    /// Decodes the reference at ``position`` (`&amp;`, `&#233;`, `&#xE9;`) into its UTF-8 bytes.
    mutating func readReference() throws(XMLFailure) -> [UInt8] {
        let start = position + 1
        var end = start
        while end < bytes.count, end - start <= 32, bytes[end] != UInt8(ascii: ";") {
            guard Self.isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: "#") else { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > start else {
            throw failure(.malformed("a “&” that does not start a reference (write &amp;)"))
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        var output: [UInt8] = []
        if let scalar = Self.predefined[name] {
            output.append(scalar)
        } else if name.hasPrefix("#") {
            let hex = name.hasPrefix("#x")
            let digits = name.dropFirst(hex ? 2 : 1)
            guard let value = UInt32(digits, radix: hex ? 16 : 10), !digits.isEmpty,
                let scalar = Unicode.Scalar(value), Self.isAllowedCharacter(value)
            else {
                throw failure(.invalidCharacterReference(name))
            }
            output.append(contentsOf: String(Character(scalar)).utf8)
        } else {
            throw failure(.undeclaredEntity(name))
        }
        position = end + 1
        return output
    }

    private static let predefined: [String: UInt8] = [
        "amp": UInt8(ascii: "&"), "lt": UInt8(ascii: "<"), "gt": UInt8(ascii: ">"), "quot": UInt8(ascii: "\""),
        "apos": UInt8(ascii: "'"),
    ]

    /// XML 1.0's `Char`: tab, LF, CR, and everything from space up except surrogates and FFFE/FFFF.
    private static func isAllowedCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    // MARK: Markup that is not an element

    /// `<?target …?>`: skipped. An XML declaration may only come first and must say UTF-8.
    private mutating func skipProcessingInstruction() throws(XMLFailure) {
        let start = position
        guard let close = find("?>", from: position + 2) else { throw failure(.unexpectedEnd) }
        let body = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 2)..<close]), as: UTF8.self)
        let target = body.prefix { !$0.isWhitespace }
        if target.lowercased() == "xml" {
            guard start == 0 || (start == 3 && bytes[0] == 0xEF) else {
                throw failure(.malformed("an XML declaration that is not at the start"))
            }
            if let encoding = Self.pseudoAttribute("encoding", in: body),
                !["utf-8", "utf8", "us-ascii"].contains(encoding.lowercased())
            {
                throw failure(.unsupportedEncoding("it declares \(encoding)"))
            }
        }
        position = close + 2
    }

    /// `<!--…-->`, `<![CDATA[…]]>`, and `<!DOCTYPE`, which is refused.
    private mutating func readDeclaration() throws(XMLFailure) {
        if matches("<!--", at: position) {
            guard let close = find("-->", from: position + 4) else { throw failure(.unexpectedEnd) }
            position = close + 3
        } else if matches("<![CDATA[", at: position) {
            guard !open.isEmpty else { throw failure(.malformed("CDATA outside the root element")) }
            guard let close = find("]]>", from: position + 9) else { throw failure(.unexpectedEnd) }
            var index = position + 9
            while index < close {
                if bytes[index] == 0x0D {
                    text.append(0x0A)
                    index += index + 1 < close && bytes[index + 1] == 0x0A ? 2 : 1
                } else {
                    text.append(bytes[index])
                    index += 1
                }
            }
            if text.count > limits.maximumTextBytes {
                throw failure(.limitExceeded("bytes of text in one element", limit: limits.maximumTextBytes))
            }
            position = close + 3
        } else if matchesIgnoringCase("<!DOCTYPE", at: position) {
            throw failure(.doctypeRefused)
        } else {
            throw failure(.malformed("markup declarations (<!…>) are not allowed"))
        }
    }

    // MARK: Tags

    private mutating func readStartTag() throws(XMLFailure) -> XMLEvent {
        if rootClosed { throw failure(.malformed("a second root element")) }
        position += 1
        let qualified = try readName()
        var raw: [(name: String, value: String)] = []
        var selfClosing = false
        while true {
            let hadSpace = skipSpace()
            guard position < bytes.count else { throw failure(.unexpectedEnd) }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw failure(.malformed("“/” inside a tag"))
                }
                position += 2
                selfClosing = true
                break
            }
            guard hadSpace else { throw failure(.malformed("attributes must be separated by white space")) }
            let name = try readName()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw failure(.malformed("the attribute \(XMLFailure.shown(name)) has no value"))
            }
            position += 1
            skipSpace()
            let value = try readAttributeValue()
            if raw.contains(where: { $0.name == name }) {
                throw failure(.malformed("the attribute \(XMLFailure.shown(name)) appears twice"))
            }
            raw.append((name, value))
            if raw.count > limits.maximumAttributes {
                throw failure(.limitExceeded("attributes on one element", limit: limits.maximumAttributes))
            }
        }
        elements += 1
        if elements > limits.maximumElements {
            throw failure(.limitExceeded("elements", limit: limits.maximumElements))
        }
        if open.count >= limits.maximumDepth {
            throw failure(.limitExceeded("levels of nested elements", limit: limits.maximumDepth))
        }
        let (name, attributes, added) = try resolve(qualified, raw)
        open.append((qualified, name, added))
        if selfClosing { pendingEnd = name }
        return .start(name, attributes: attributes)
    }

    private mutating func readEndTag() throws(XMLFailure) -> XMLEvent {
        position += 2
        let qualified = try readName()
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw failure(position < bytes.count ? .malformed("junk in an end tag") : .unexpectedEnd)
        }
        position += 1
        guard let top = open.last else {
            throw failure(.malformed("the end tag </\(XMLFailure.shown(qualified))> closes nothing"))
        }
        guard top.qualified == qualified else {
            throw failure(.mismatchedEndTag(expected: top.qualified, found: qualified))
        }
        try close()
        return .end(top.name)
    }

    /// Pops the innermost element and its namespace bindings.
    private mutating func close() throws(XMLFailure) {
        guard let top = open.popLast() else { throw failure(.malformed("an end with nothing open")) }
        bindings.removeLast(top.bindings)
        if open.isEmpty { rootClosed = true }
    }

    /// Declares the element's `xmlns` attributes, then resolves its name and other attributes.
    private mutating func resolve(
        _ qualified: String, _ raw: [(name: String, value: String)]
    ) throws(XMLFailure) -> (XMLName, [XMLAttribute], Int) {
        var added = 0
        for attribute in raw {
            if attribute.name == "xmlns" {
                bindings.append(("", attribute.value))
                added += 1
            } else if attribute.name.hasPrefix("xmlns:") {
                let prefix = String(attribute.name.dropFirst(6))
                guard !prefix.isEmpty, !attribute.value.isEmpty else {
                    throw failure(.malformed("an empty namespace declaration"))
                }
                bindings.append((prefix, attribute.value))
                added += 1
            }
        }
        let name = try resolve(qualified, isElement: true)
        var attributes: [XMLAttribute] = []
        for attribute in raw where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            attributes.append(XMLAttribute(name: try resolve(attribute.name, isElement: false), value: attribute.value))
        }
        return (name, attributes, added)
    }

    private func resolve(_ qualified: String, isElement: Bool) throws(XMLFailure) -> XMLName {
        guard let colon = qualified.firstIndex(of: ":") else {
            // An unprefixed attribute has no namespace; an unprefixed element takes the default.
            guard isElement else { return XMLName("", qualified) }
            return XMLName(bindings.last { $0.prefix.isEmpty }?.namespace ?? "", qualified)
        }
        let prefix = String(qualified[..<colon])
        let local = String(qualified[qualified.index(after: colon)...])
        guard !local.isEmpty, !local.contains(":") else {
            throw failure(.malformed("the name \(XMLFailure.shown(qualified)) is not a qualified name"))
        }
        guard let binding = bindings.last(where: { $0.prefix == prefix }) else {
            throw failure(.unboundPrefix(prefix))
        }
        return XMLName(binding.namespace, local)
    }
}
