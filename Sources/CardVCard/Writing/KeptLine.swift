/// A kept line as the writer sees it: its name read straight from the text, the whole line
/// parsed only when the writer must look inside — a CardWallet marker or a base64 value (both
/// always among the first parameters, as the importer writes them) — or asks for its
/// preference. Most kept lines are written back as they are, unparsed.
struct KeptLine {
    /// The line.
    let text: String
    /// The property name, upper-cased, without its group.
    let key: String
    /// Whether the name has a group (`item1.`).
    let grouped: Bool
    /// The parsed line, when its parameters hold a marker or an encoding.
    let property: VCardProperty?
    /// Whether the parameters mention a preference at all (`PREF`, `TYPE=pref`).
    private let mentionsPreference: Bool

    init(_ text: String) {
        self.text = text
        let utf8 = text.utf8
        let nameEnd = utf8.firstIndex { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") } ?? utf8.endIndex
        let name = utf8[utf8.startIndex..<nameEnd]
        let dot = name.lastIndex(of: UInt8(ascii: "."))
        grouped = dot != nil
        let bare = dot.map { name[utf8.index(after: $0)...] } ?? name
        key = String(decoding: bare.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
        let headerEnd = utf8[nameEnd...].firstIndex(of: UInt8(ascii: ":")) ?? utf8.endIndex
        let header = utf8[nameEnd..<headerEnd]
        let inside = Self.contains(header, Self.markerWord) || Self.contains(header, Self.encodingWord)
        property = inside ? ContentLine.parse(text) : nil
        mentionsPreference = Self.contains(header, Self.preferenceWord)
    }

    /// The line's preference (``VCardProperty/preference``), parsing it only when its
    /// parameters mention one.
    var preference: Int {
        guard mentionsPreference else { return .max }
        return parsed()?.preference ?? .max
    }

    /// The parsed line (parsing it now when it was not).
    func parsed() -> VCardProperty? { property ?? ContentLine.parse(text) }

    /// The value of parameter `name` when the line was parsed for its markers.
    func marker(_ name: String) -> String? { property?.values(of: name).first }

    private static let markerWord = Array("X-CARDWALLET-".utf8)
    private static let encodingWord = Array("ENCODING=".utf8)
    private static let preferenceWord = Array("PREF".utf8)

    /// Whether `bytes` hold `word` (upper-case ASCII), ignoring ASCII case.
    private static func contains(_ bytes: Substring.UTF8View.SubSequence, _ word: [UInt8]) -> Bool {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var probe = index
            var matched = 0
            while matched < word.count, probe != bytes.endIndex {
                let byte = bytes[probe]
                guard (byte >= 97 && byte <= 122 ? byte - 32 : byte) == word[matched] else { break }
                matched += 1
                probe = bytes.index(after: probe)
            }
            if matched == word.count { return true }
            index = bytes.index(after: index)
        }
        return false
    }
}
