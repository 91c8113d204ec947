import CardModels
import CardScanCore
import Foundation
import Networking

/// How `cardwallet scan` prints what it found on a photo. Every value read from a photo is
/// escaped with `TerminalText` (OCR can read anything, control characters included).
enum ScanOutput {
    /// The fields a scan can find, in the card's order.
    static let scannedFields: [CardField] = [.name, .title, .company, .department, .email, .phone, .website, .address]

    /// The fields found, one per line with aligned labels, the kept vCard lines (`Also:`), then
    /// what the scan was unsure of (`Unsure:`); `Nothing found.` when it found nothing.
    static func text(_ card: ScannedCard) -> String {
        var rows: [(String, String)] = []
        for field in scannedFields where !card.fields[field].isEmpty {
            rows.append((field.label, TerminalText.escaped(card.fields[field])))
        }
        for line in card.fields.vcardProperties { rows.append(("Also", TerminalText.escaped(line))) }
        if rows.isEmpty { rows.append(("Found", "nothing")) }
        for note in card.notes { rows.append(("Unsure", TerminalText.escaped(note.description))) }
        let width = rows.map(\.0.count).max() ?? 0
        var lines: [String] = []
        var previous = ""
        for (label, value) in rows {
            // A label said once for a run of lines (every note under one `Unsure:`).
            let shown = label == previous ? "" : label + ":"
            lines.append(shown + String(repeating: " ", count: width + 2 - shown.count) + value)
            previous = label
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fields found as one line of JSON under the card's field names, absent fields left
    /// out (so it can be given to the API, or to `jq`, as it is).
    static func json(_ card: ScannedCard) throws -> String {
        let encoder = CardWalletJSON.encoder()
        let text = String(decoding: try encoder.encode(FoundFields(fields: card.fields)), as: UTF8.self)
        return CardText.escapeInvisibles(inJSON: text) + "\n"
    }

    /// A value as one compact line of the API's JSON (for the cards `--add` created).
    static func jsonLine(_ value: some Encodable) throws -> String {
        let text = String(decoding: try CardWalletJSON.encoder().encode(value), as: UTF8.self)
        return CardText.escapeInvisibles(inJSON: text) + "\n"
    }
}

/// The card fields a scan found, encoded with absent ones left out (`CardFields` itself always
/// writes its lists and avatar).
struct FoundFields: Encodable {
    var fields: CardFields

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for field in ScanOutput.scannedFields where !fields[field].isEmpty {
            try container.encode(fields[field], forKey: Key(field.key))
        }
        if !fields.vcardProperties.isEmpty {
            try container.encode(fields.vcardProperties, forKey: Key(CardLimits.vcardPropertiesKey))
        }
    }
}
