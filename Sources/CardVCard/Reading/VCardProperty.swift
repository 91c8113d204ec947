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
///
/// A property the reader made is a view of its card's bytes (``PropertyBytes``): its name,
/// parameters and value become strings only when asked for, so a property that is only kept
/// as a line, or only matched by name, costs no strings at all. Setting any part makes the
/// property hold its parts as values from then on.
public struct VCardProperty: Sendable {
    enum Storage: Sendable {
        case bytes(PropertyBytes)
        case values(Values)
    }

    /// The parts of a property given or changed as values.
    struct Values: Sendable {
        var group: String?
        var name: String
        var key: String
        var parameters: [VCardParameter]
        var value: String
        var binary: [UInt8]?
    }

    private(set) var storage: Storage
    /// The line it starts on, from 1.
    public var line: Int

    /// A property.
    public init(
        group: String? = nil, name: String, parameters: [VCardParameter] = [], value: String,
        binary: [UInt8]? = nil, line: Int = 0
    ) {
        storage = .values(
            Values(
                group: group, name: name, key: Self.upperCased(name), parameters: parameters, value: value,
                binary: binary))
        self.line = line
    }

    /// A property the reader found in `bytes`.
    init(_ view: PropertyBytes, line: Int) {
        storage = .bytes(view)
        self.line = line
    }

    /// The group before the dot (`item1` in `item1.EMAIL`), as written.
    public var group: String? {
        get {
            switch storage {
            case .bytes(let view): view.group
            case .values(let values): values.group
            }
        }
        set { modify { $0.group = newValue } }
    }

    /// The name as written (`EMAIL`, `X-ABLabel`).
    public var name: String {
        get {
            switch storage {
            case .bytes(let view): view.name
            case .values(let values): values.name
            }
        }
        set {
            modify {
                $0.name = newValue
                $0.key = Self.upperCased(newValue)
            }
        }
    }

    /// The name upper-cased, for comparisons.
    public var key: String {
        switch storage {
        case .bytes(let view): view.key
        case .values(let values): values.key
        }
    }

    /// The parameters, in order of first appearance.
    public var parameters: [VCardParameter] {
        get {
            switch storage {
            case .bytes(let view): view.parameters
            case .values(let values): values.parameters
            }
        }
        set { modify { $0.parameters = newValue } }
    }

    /// The value as text with its escapes; empty when the value is ``binary``.
    public var value: String {
        get {
            switch storage {
            case .bytes(let view): view.value
            case .values(let values): values.value
            }
        }
        set { modify { $0.value = newValue } }
    }

    /// The bytes of a base64 value (`ENCODING=b`, `ENCODING=BASE64`).
    public var binary: [UInt8]? {
        get {
            switch storage {
            case .bytes(let view): view.binary
            case .values(let values): values.binary
            }
        }
        set { modify { $0.binary = newValue } }
    }

    /// Holds the parts as values (from the bytes, the first time), then changes them.
    private mutating func modify(_ change: (inout Values) -> Void) {
        var values: Values
        switch storage {
        case .values(let held): values = held
        case .bytes(let view):
            values = Values(
                group: view.group, name: view.name, key: view.key, parameters: view.parameters, value: view.value,
                binary: view.binary)
        }
        storage = .values(values)
        change(&values)
        storage = .values(values)
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
        // Most properties have no parameters, or none that mention a preference.
        if case .bytes(let view) = storage, !view.headerMentions(PropertyBytes.prefWord) { return .max }
        if let pref = values(of: "PREF").first {
            // vCard 2.1's bare PREF arrives here as TYPE; a PREF parameter without a number
            // (PREF=) still marks a preference.
            return Int(pref).map { max(1, min($0, 100)) } ?? 1
        }
        return types.contains("PREF") ? 1 : Int.max
    }

    /// The value with its escapes undone: `\n` is a line break, `\,` a comma.
    public var text: String {
        switch storage {
        case .bytes(let view): view.text
        case .values(let values): VCardText.unescape(values.value[...])
        }
    }

    /// The `;`-separated parts of a structured value (N, ADR, ORG), each unescaped.
    public var components: [String] {
        switch storage {
        case .bytes(let view): view.split(separator: UInt8(ascii: ";"))
        case .values(let values): VCardText.split(values.value, separator: ";")
        }
    }

    /// The `,`-separated values of a list (CATEGORIES), each unescaped, empty ones left out.
    public var listValues: [String] {
        switch storage {
        case .bytes(let view): view.split(separator: UInt8(ascii: ",")).filter { !$0.isEmpty }
        case .values(let values): VCardText.split(values.value, separator: ",").filter { !$0.isEmpty }
        }
    }

    /// Whether the value is ``binary`` (without copying its bytes).
    var isBinary: Bool {
        switch storage {
        case .bytes(let view): view.layout.flags.contains(.binary)
        case .values(let values): values.binary != nil
        }
    }

    /// A property the reader could not decode, kept as the line it was (``PropertyBytes/damage``):
    /// its problem, for the importer's warning.
    var damage: String? {
        if case .bytes(let view) = storage { return view.damage }
        return nil
    }

    /// Whether its name is `upper` (upper-case ASCII), compared on the bytes.
    func isNamed(_ upper: String) -> Bool {
        switch storage {
        case .bytes(let view): view.nameEquals(upper)
        case .values(let values): values.key == upper
        }
    }

    /// Whether the parameters may hold one of CardWallet's markers (`X-CARDWALLET-…`): false
    /// is certain, true means look.
    var mayHaveWalletMarker: Bool {
        switch storage {
        case .bytes(let view): view.headerMentions(PropertyBytes.walletWord)
        case .values(let values): values.parameters.contains { $0.name.hasPrefix("X-CARDWALLET-") }
        }
    }

    static func upperCased(_ name: String) -> String {
        name.utf8.allSatisfy({ $0 < 0x80 })
            ? String(decoding: name.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
            : name.uppercased()
    }
}

extension VCardProperty: Hashable {
    public static func == (a: VCardProperty, b: VCardProperty) -> Bool {
        a.line == b.line && a.group == b.group && a.name == b.name && a.parameters == b.parameters
            && a.value == b.value && a.binary == b.binary
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(group)
        hasher.combine(name)
        hasher.combine(parameters)
        hasher.combine(value)
        hasher.combine(binary)
    }
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
        if SimpleText.hasSimpleEnds(self) { return self }
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 11 || byte == 12
    }
}
