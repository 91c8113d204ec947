public import CardModels

extension VCardResource {
    /// The card's own `UID` among the lines kept from its import (``CardModels/CardFields/vcardProperties``):
    /// the text of the first ungrouped `UID` line, trimmed; `nil` when there is none, or an empty
    /// one. A `UID` CardWallet derived from a card id (`cardwallet-…`) is never kept, so it is
    /// never found here.
    public static func keptUID(of fields: CardFields) -> String? {
        keptUIDLine(of: fields)?.value
    }

    /// The first ungrouped `UID` line kept in `fields` and its value.
    static func keptUIDLine(of fields: CardFields) -> (line: String, value: String)? {
        for line in fields.vcardProperties {
            // Cheap test first: most kept lines are not UIDs.
            guard line.utf8.count > 4, line.utf8.prefix(3).map({ $0 & 0xDF }) == Array("UID".utf8) else { continue }
            guard let property = ContentLine.parse(line), property.key == "UID", property.group == nil else {
                continue
            }
            let value = property.text.trimmingVCardWhitespace
            return value.isEmpty ? nil : (line, value)
        }
        return nil
    }

    /// The `UID` of the vCard `text` (its first ungrouped `UID` line, unfolded, its text
    /// trimmed), as ``uid`` would read it, without reading the rest of the card: for matching
    /// an import's cards with the many cards a wallet holds. `nil` when it has none.
    public static func uid(inText text: String) -> String? {
        let bytes = Array(text.utf8)
        var index = 0
        var lineStart = true
        while index < bytes.count {
            if lineStart, index + 4 <= bytes.count, bytes[index] & 0xDF == UInt8(ascii: "U"),
                bytes[index + 1] & 0xDF == UInt8(ascii: "I"), bytes[index + 2] & 0xDF == UInt8(ascii: "D"),
                bytes[index + 3] == UInt8(ascii: ":") || bytes[index + 3] == UInt8(ascii: ";")
            {
                // The content line, unfolded: a line break followed by a space or tab goes on.
                var line: [UInt8] = []
                var position = index
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == 13 || byte == 10 {
                        var next = position + 1
                        if byte == 13, next < bytes.count, bytes[next] == 10 { next += 1 }
                        guard next < bytes.count, bytes[next] == 32 || bytes[next] == 9 else { break }
                        position = next + 1
                        continue
                    }
                    line.append(byte)
                    position += 1
                }
                if let property = ContentLine.parse(String(decoding: line, as: UTF8.self)), property.group == nil {
                    let value = property.text.trimmingVCardWhitespace
                    return value.isEmpty ? nil : value
                }
                index = position
                continue
            }
            lineStart = bytes[index] == 10 || bytes[index] == 13
            index += 1
        }
        return nil
    }
}
