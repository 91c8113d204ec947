public import CardModels
import Foundation

/// Writes cards as vCard 3.0 (the default: what most programs read best) or 4.0.
///
/// Every card gets `PRODID` (CardWallet's, which marks our vdir files), `FN` and `N`, the
/// modelled fields, a `UID` (the card's own, kept from its import, else derived from its id),
/// its picture, the kept lines of its import in their order, and `REV` from `updatedAt`. Lines
/// end with CR LF and are folded at 75 octets, never inside a UTF-8 sequence.
public struct VCardWriter: Sendable {
    /// `.v30` or `.v40` (2.1 is read, never written: it is written as 3.0).
    public var version: VCardVersion

    /// A writer of `version`.
    public init(version: VCardVersion = .v30) {
        self.version = version == .v21 ? .v30 : version
    }

    /// One line of a written card, with how readily the compact form leaves it out.
    struct Line {
        var text: String
        /// 0: never left out; higher: left out earlier.
        var expendability: Int
    }

    /// The card as bytes: CR LF line ends, folded.
    ///
    /// - Parameters:
    ///   - card: the card.
    ///   - photo: its image, when it has one (fetched separately from the server).
    public func write(_ card: Card, photo: VCardPhoto? = nil) -> [UInt8] {
        var out: [UInt8] = []
        append(card, photo: photo, to: &out)
        return out
    }

    /// Appends the card to `out` (for writing many cards into one buffer).
    public func append(_ card: Card, photo: VCardPhoto? = nil, to out: inout [UInt8]) {
        for line in lines(for: card, photo: photo) { LineFolding.append(line.text, to: &out) }
    }

    /// The card's content lines, unfolded, in the order they are written.
    func lines(for card: Card, photo: VCardPhoto?) -> [Line] {
        let fields = card.fields
        let kept = fields.vcardProperties.map(KeptLine.init)
        // Kept lines standing for a field are used (when still true) or dropped, never extras.
        var used = kept.map { $0.marker(WalletProperty.fieldParameter) != nil }
        // The kept N (marked with the name it goes with) is the card's N while the card keeps that
        // name; after a rename, a new one is derived. Any other N is an extra.
        let keptN = kept.indices.first { kept[$0].key == "N" && kept[$0].marker(WalletProperty.nameParameter) != nil }
        let nameIsCurrent = keptN.map { kept[$0].marker(WalletProperty.nameParameter) == fields.name } ?? false
        if let keptN, !nameIsCurrent { used[keptN] = true }
        // A name the importer derived (the vCard had none) is written as no name, while the card
        // keeps it: an empty FN (3.0 and 4.0 require one) and an empty N, not a name made up.
        var nameIsDerived = false
        for index in kept.indices where kept[index].key == WalletProperty.derivedName {
            used[index] = true
            if DerivedName.name(inMarker: kept[index]) == fields.name { nameIsDerived = true }
        }

        // Originals of fun facts written already (two facts may be clipped to the same text).
        var emitted = Set<Int>()
        var lines = [
            Line(text: "BEGIN:VCARD", expendability: 0), Line(text: "VERSION:" + version.rawValue, expendability: 0),
            Line(text: "PRODID:" + WalletProperty.productID, expendability: 20),
        ]
        for rule in FieldRule.mapping {
            if rule.choice == .every {
                for value in fields.values(of: rule.fields[0]) {
                    // The whole fact a clipped one was imported from, while it still says the same.
                    let original = kept.indices.first { index in
                        kept[index].key == rule.property
                            && kept[index].marker(WalletProperty.fieldParameter) == rule.fields[0].key
                            && !emitted.contains(index)
                            && kept[index].property.flatMap(rule.read)?.clipped
                                == FieldValues(rule.fields[0], list: [value])
                    }
                    if let original, let property = kept[original].property {
                        emitted.insert(original)
                        lines.append(Line(text: Self.unmarked(property), expendability: 8))
                    } else {
                        lines.append(Line(text: rule.property + ":" + VCardText.escape(value), expendability: 8))
                    }
                }
                continue
            }
            if rule.property == "FN", nameIsDerived {
                lines.append(Line(text: "FN:", expendability: 0))
                if !nameIsCurrent { lines.append(Line(text: "N:;;;;", expendability: 0)) }
                continue
            }
            let wanted = rule.values(in: fields)
            let expendability = Self.expendability(rule.property)
            // The line the field was imported as, while the field still says the same.
            let original = kept.indices.first { index in
                kept[index].key == rule.property
                    && kept[index].marker(WalletProperty.fieldParameter) == rule.fields[0].key
            }
            if !wanted.isEmpty {
                if let original, let property = kept[original].property, rule.read(property)?.clipped == wanted {
                    lines.append(Line(text: Self.unmarked(property), expendability: expendability))
                } else if var text = rule.write(fields, version) {
                    if rule.choice == .preferred,
                        kept.indices.contains(where: { index in
                            !used[index] && kept[index].key == rule.property && kept[index].preference < .max
                        })
                    {
                        text = markPreferred(text)
                    }
                    lines.append(Line(text: text, expendability: expendability))
                }
            }
            if rule.property == "FN", !nameIsCurrent {
                lines.append(Line(text: NameParts.derivedLine(for: fields.name), expendability: 0))
            }
        }
        if !kept.contains(where: { $0.key == "UID" && !$0.grouped }) {
            lines.append(Line(text: "UID:" + WalletProperty.uidPrefix + card.id, expendability: 4))
        }
        if let photo {
            let base64 = TransferEncoding.base64Encode(photo.bytes)
            let text =
                version == .v40
                ? "PHOTO:data:\(photo.format.contentType);base64,\(base64)"
                : "PHOTO;ENCODING=b;TYPE=\(photo.format == .png ? "PNG" : "JPEG"):\(base64)"
            lines.append(Line(text: text, expendability: 30))
        }
        for (index, line) in kept.enumerated() where !used[index] {
            let expendability = line.key == "N" ? 0 : line.key == "UID" ? 4 : 10
            let text = index == keptN ? line.property.map(Self.unmarked) ?? line.text : line.text
            lines.append(Line(text: convert(text, property: line.property), expendability: expendability))
        }
        lines.append(Line(text: "REV:" + Self.timestamp(card.updatedAt, version: version), expendability: 20))
        lines.append(Line(text: "END:VCARD", expendability: 0))
        return lines
    }

    /// A kept line without CardWallet's markers.
    private static func unmarked(_ property: VCardProperty) -> String {
        ContentLine.render(property, marker: nil, withoutMarkers: true, value: nil)
    }

    /// The `UID` the writer gives `card`: the one kept from its import, else `cardwallet-<id>`.
    public static func uid(of card: Card) -> String {
        for line in card.fields.vcardProperties where line.uppercased().hasPrefix("UID") {
            if let property = ContentLine.parse(line), property.key == "UID", property.group == nil {
                let value = property.text.trimmingVCardWhitespace
                if !value.isEmpty { return value }
            }
        }
        return WalletProperty.uidPrefix + card.id
    }

    /// A kept line as this version wants it: in 4.0, base64 values become `data:` URIs.
    private func convert(_ text: String, property: VCardProperty?) -> String {
        guard version == .v40, var property, let binary = property.binary else { return text }
        let type = property.types.first?.lowercased() ?? ""
        let media =
            ["png", "jpeg", "jpg", "gif", "bmp", "tiff"].contains(type)
            ? "image/" + (type == "jpg" ? "jpeg" : type)
            : "application/octet-stream"
        property.parameters.removeAll { $0.name == "TYPE" }
        property.binary = nil
        property.value = "data:\(media);base64," + TransferEncoding.base64Encode(binary)
        return ContentLine.render(property)
    }

    /// `EMAIL:x` → `EMAIL;TYPE=pref:x` (3.0) or `EMAIL;PREF=1:x` (4.0).
    private func markPreferred(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        return line[..<colon] + (version == .v40 ? ";PREF=1" : ";TYPE=pref") + line[colon...]
    }

    private static func expendability(_ property: String) -> Int {
        switch property {
        case "FN": 0
        case "EMAIL", "TEL": 1
        case "ORG", "TITLE": 2
        case "URL": 3
        case "ADR": 5
        case "BDAY": 6
        case "CATEGORIES": 7
        case "NOTE": 9
        default: 8
        }
    }

    /// `2024-05-01T10:20:30Z` (3.0) or `20240501T102030Z` (4.0), in UTC.
    static func timestamp(_ date: Date, version: VCardVersion) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Howard Hinnant's days-to-civil algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else {
            return "\(year)-\(month)-\(day)T\(time / 3600):\(time / 60 % 60):\(time % 60)Z"
        }
        // Digits straight into bytes: this runs once per card written.
        var out: [UInt8] = []
        out.reserveCapacity(20)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        let extended = version != .v40
        digits(year, 4)
        if extended { out.append(UInt8(ascii: "-")) }
        digits(month, 2)
        if extended { out.append(UInt8(ascii: "-")) }
        digits(day, 2)
        out.append(UInt8(ascii: "T"))
        digits(time / 3600, 2)
        if extended { out.append(UInt8(ascii: ":")) }
        digits(time / 60 % 60, 2)
        if extended { out.append(UInt8(ascii: ":")) }
        digits(time % 60, 2)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}
