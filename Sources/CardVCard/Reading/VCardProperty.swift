/// One parameter of a property, with its values: `TYPE=WORK,VOICE`.
///
/// Repeated parameters are merged (`TYPE=work;TYPE=voice` and vCard 2.1's bare `WORK;VOICE`
/// both become `TYPE` with the values `work`, `voice`), values keep their case.
public struct VCardParameter: Sendable, Hashable {
    /// The name, upper-cased: `TYPE`, `PREF`, `VALUE`, `LABEL`…
    public var name: String
    /// The values, unquoted, in order.
    public var values: [String]

    /// A parameter.
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One property of a card, unfolded and decoded: `item1.EMAIL;TYPE=INTERNET:ada@example.com`.
///
/// Transfer encodings are undone (quoted-printable, base64) and the text is UTF-8 whatever its
/// `CHARSET` was, so `CHARSET` and `ENCODING` are not among the parameters; a base64 value is in
/// ``binary``. Text keeps its vCard escapes (`\,` `\;` `\n`) as written: ``text`` and
/// ``components`` undo them.
public struct VCardProperty: Sendable, Hashable {
    /// The group before the dot (`item1` in `item1.EMAIL`), as written.
    public var group: String?
    /// The name as written (`EMAIL`, `X-ABLabel`).
    public var name: String
    /// The name upper-cased, for comparisons.
    public var key: String
    /// The parameters, in order of first appearance.
    public var parameters: [VCardParameter]
    /// The value as text with its escapes; empty when the value is ``binary``.
    public var value: String
    /// The bytes of a base64 value (`ENCODING=b`, `ENCODING=BASE64`).
    public var binary: [UInt8]?
    /// The line it starts on, from 1.
    public var line: Int

    /// A property.
    public init(
        group: String? = nil, name: String, parameters: [VCardParameter] = [], value: String,
        binary: [UInt8]? = nil, line: Int = 0
    ) {
        self.group = group
        self.name = name
        self.key =
            name.utf8.allSatisfy({ $0 < 0x80 })
            ? String(decoding: name.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
            : name.uppercased()
        self.parameters = parameters
        self.value = value
        self.binary = binary
        self.line = line
    }

    /// The values of parameter `name` (upper-case), empty when absent.
    public func values(of name: String) -> [String] {
        parameters.first { $0.name == name }?.values ?? []
    }

    /// The `TYPE` values, upper-cased: `["WORK", "VOICE"]`.
    public var types: [String] { values(of: "TYPE").map { $0.uppercased() } }

    /// How strongly the card prefers this one among properties of the same name: 1 is the
    /// most preferred (`PREF=1` in 4.0, `TYPE=PREF` or a bare `PREF` before), `Int.max` when
    /// not marked at all.
    public var preference: Int {
        if let pref = values(of: "PREF").first {
            // vCard 2.1's bare PREF arrives here as TYPE; a PREF parameter without a number
            // (PREF=) still marks a preference.
            return Int(pref).map { max(1, min($0, 100)) } ?? 1
        }
        return types.contains("PREF") ? 1 : Int.max
    }

    /// The value with its escapes undone: `\n` is a line break, `\,` a comma.
    public var text: String { VCardText.unescape(value[...]) }

    /// The `;`-separated parts of a structured value (N, ADR, ORG), each unescaped.
    public var components: [String] { VCardText.split(value, separator: ";") }

    /// The `,`-separated values of a list (CATEGORIES), each unescaped, empty ones left out.
    public var listValues: [String] { VCardText.split(value, separator: ",").filter { !$0.isEmpty } }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingVCardWhitespace: String {
        // Most values have nothing to trim: answer from the first and last bytes when they are
        // ASCII, without walking the characters.
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
            !Self.isASCIIWhitespace(first), !Self.isASCIIWhitespace(last)
        {
            return self
        }
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 11 || byte == 12
    }
}
