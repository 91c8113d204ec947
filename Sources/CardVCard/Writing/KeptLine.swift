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
    /// The markers' values, read once (the writer asks for them per rule).
    private let fieldMarker: String?
    private let nameMarker: String?

    init(_ text: String) {
        self.text = text
        var line = text
        // The name and the header's words, from the bytes.
        let (key, grouped, marked, encoded, preference) = line.withUTF8 { bytes in
            var nameEnd = 0
            var dot: Int?
            while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") {
                if bytes[nameEnd] == UInt8(ascii: ".") { dot = nameEnd }
                nameEnd += 1
            }
            let bare = dot.map { $0 + 1 } ?? 0
            let key = String(unsafeUninitializedCapacity: nameEnd - bare) { out in
                for index in bare..<nameEnd {
                    let byte = bytes[index]
                    out[index - bare] = byte >= 97 && byte <= 122 ? byte - 32 : byte
                }
                return nameEnd - bare
            }
            var headerEnd = nameEnd
            while headerEnd < bytes.count, bytes[headerEnd] != UInt8(ascii: ":") { headerEnd += 1 }
            let header = UnsafeBufferPointer(rebasing: bytes[nameEnd..<headerEnd])
            return (
                key, dot != nil, ByteSearch.contains(header, "X-CARDWALLET-"), ByteSearch.contains(header, "ENCODING="),
                ByteSearch.contains(header, "PREF")
            )
        }
        self.key = key
        self.grouped = grouped
        property = marked || encoded ? ContentLine.parse(text) : nil
        mentionsPreference = preference
        if marked, let parameters = property?.parameters {
            fieldMarker = parameters.first { $0.name == WalletProperty.fieldParameter }?.values.first
            nameMarker = parameters.first { $0.name == WalletProperty.nameParameter }?.values.first
        } else {
            fieldMarker = nil
            nameMarker = nil
        }
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
    func marker(_ name: String) -> String? {
        switch name {
        case WalletProperty.fieldParameter: fieldMarker
        case WalletProperty.nameParameter: nameMarker
        default: property?.values(of: name).first
        }
    }
}
