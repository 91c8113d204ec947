/// Writes a property back as one unfolded content line, `[group.]NAME;PARAM=a,b:value`: the
/// form kept in ``CardModels/CardFields/vcardProperties`` and the form the writer emits.
///
/// Values are written as they were read (their escapes intact); text that was
/// quoted-printable in a vCard 2.1 file is UTF-8 now and needs no `CHARSET` or `ENCODING`;
/// binary values are base64 with `ENCODING=b`.
public enum ContentLine {
    /// The content line of `property`, with `marker` as its first parameter when given.
    public static func render(_ property: VCardProperty, marker: VCardParameter? = nil) -> String {
        render(property, marker: marker, withoutMarkers: false, value: nil)
    }

    /// The content line of `property`, with `marker` as its first parameter when given, without
    /// the markers it holds when `withoutMarkers`, and with `value` instead of its own when given.
    static func render(_ property: VCardProperty, marker: VCardParameter?, withoutMarkers: Bool, value: String? = nil)
        -> String
    {
        if case .bytes(let view) = property.storage {
            // A line the reader could not decode is kept as it was.
            if view.damage != nil { return view.raw }
            // Straight from the bytes, for the parameters most files write.
            if marker.map({ $0.values.count == 1 }) ?? true,
                let line = view.rendered(
                    marker: marker.map { ($0.name, $0.values[0]) }, withoutMarkers: withoutMarkers, value: value)
            {
                return line
            }
        }
        var property = property
        if withoutMarkers { property.parameters.removeAll { WalletProperty.markers.contains($0.name) } }
        if let value { property.value = value }
        var line = ""
        if let group = property.group { line += group + "." }
        line += property.key.hasPrefix("X-") ? property.name : property.key
        if property.binary != nil { line += ";ENCODING=b" }
        for parameter in (marker.map { [$0] } ?? []) + property.parameters {
            line += ";" + parameter.name + "=" + parameter.values.map(parameterValue).joined(separator: ",")
        }
        line += ":"
        if let binary = property.binary {
            line += TransferEncoding.base64Encode(binary)
        } else {
            line += property.value
        }
        return line
    }

    /// `value`, in double quotes when it holds `:`, `;` or `,`; line breaks and quotes, which a
    /// parameter cannot hold, written as RFC 6868's `^n` and `^'` (and `^` as `^^`).
    static func parameterValue(_ value: String) -> String {
        var text = value
        if value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0x22 || $0 == 0x5E }) {
            text = ""
            for character in value {
                switch character {
                case "\n", "\r", "\r\n": text += "^n"
                case "\"": text += "^'"
                case "^": text += "^^"
                default: text.append(character)
                }
            }
        }
        if text.utf8.contains(where: { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }) { return "\"" + text + "\"" }
        return text
    }

    /// A kept line as people should read it: without the parameters CardWallet adds to keep
    /// track of which field a line stands for.
    public static func displayText(_ line: String) -> String {
        guard line.contains("X-CARDWALLET-"), var property = parse(line),
            property.parameters.contains(where: { WalletProperty.markers.contains($0.name) })
        else { return line }
        property.parameters.removeAll { WalletProperty.markers.contains($0.name) }
        return render(property)
    }

    /// The property on a kept line (a line of ``CardModels/CardFields/vcardProperties``), or
    /// `nil` when the line is not one.
    public static func property(_ line: String) -> VCardProperty? { parse(line) }

    /// The property on a kept line (parsed as vCard 4.0 would be, where `^` escapes matter), or
    /// `nil` when the line is not one.
    static func parse(_ line: String, converter: CharsetConverter? = nil) -> VCardProperty? {
        let parser = ContentLineParser(converter: converter)
        return try? parser.parse(Array(line.utf8), line: 0, version: .v40).get()
    }
}
