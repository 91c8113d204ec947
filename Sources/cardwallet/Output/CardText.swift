import CardModels
import CardVCard
import CardWalletLive
import CardWalletUI
import Foundation

/// How the scripting commands print cards: a table, a detail view and JSON. Every piece of
/// card text is escaped with `TerminalText` (a card named `"\u{1B}[2J"` prints as `^[[2J`), so a
/// card cannot drive the terminal.
enum CardText {
    /// The columns of `cardwallet list`.
    ///
    /// The id first (to copy), then the order of the interface's list: name, company, title, email.
    static let listColumns = [
        TextTable.Column("ID"),
        TextTable.Column("NAME", maximumWidth: 32),
        TextTable.Column("COMPANY", maximumWidth: 28),
        TextTable.Column("TITLE", maximumWidth: 28),
        TextTable.Column("EMAIL", maximumWidth: 40),
    ]

    /// The fields the list table shows.
    static let listedFields: Set<CardField> = [.name, .company, .title, .email]

    /// The wallet as a table: the id (the shortest start of it no other card shares, with
    /// `prefixes`; never clipped, so it can be copied), the book (with `books`, one per card:
    /// `--book all`), name, company, title, email, and with `matched` a MATCH column naming the
    /// field each card matched in (blank when shown).
    static func table(
        _ cards: [CardSummary], matched: [CardField]? = nil, books: [String]? = nil, prefixes: UniquePrefixes? = nil
    ) -> String {
        var columns = listColumns
        if books != nil { columns.insert(TextTable.Column("BOOK", maximumWidth: 24), at: 1) }
        if matched != nil { columns.append(TextTable.Column("MATCH")) }
        let rows = cards.enumerated().map { index, card in
            var row = [
                prefixes?.prefix(of: card.id) ?? card.id, card.name, card.company ?? "", card.title ?? "",
                card.email ?? "",
            ]
            if let books { row.insert(books[index], at: 1) }
            if let matched {
                let field = matched[index]
                row.append(listedFields.contains(field) ? "" : field.label.lowercased())
            }
            return row
        }
        return TextTable(columns: columns, rows: rows).render()
    }

    /// Every field of a card, one per line, labels aligned; absent fields show `-`.
    static func detail(_ card: Card) -> String {
        var rows: [(String, [String])] = [("ID", [card.id])]
        for field in CardField.allCases {
            rows.append((field.label, values(of: field, in: card.fields)))
        }
        let link = card.pictureLinkNotLoaded.map {
            "none: a link to another address, not loaded (\(TerminalText.escaped($0)))"
        }
        rows.append(("Image", [card.image.map(imageText) ?? (card.hasImage ? "yes" : link ?? "none")]))
        // A CardDAV book's groups it belongs to (never shown for the card API, which has none).
        if !card.groups.isEmpty {
            rows.append(("Groups", [card.groups.map(TerminalText.escaped).joined(separator: ", ")]))
        }
        // What an imported vCard held that the card does not model, as `export` writes it back.
        if !card.fields.vcardProperties.isEmpty {
            rows.append(
                ("vCard", card.fields.vcardProperties.map { TerminalText.escaped(ContentLine.displayText($0)) }))
        }
        rows.append(("Created", [CardWalletJSON.formatDate(card.createdAt)]))
        rows.append(("Updated", [CardWalletJSON.formatDate(card.updatedAt)]))
        rows.append(("Version", [card.revision.description]))
        let width = rows.map { $0.0.count }.max() ?? 0
        var lines: [String] = []
        for (label, values) in rows {
            let lead = label + ":" + String(repeating: " ", count: width - label.count + 1)
            let indent = String(repeating: " ", count: lead.count)
            let shown = values.isEmpty ? ["-"] : values
            for (index, value) in shown.enumerated() {
                lines.append(((index == 0 ? lead : indent) + value).trimmingTrailingSpaces)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `image/png, 20513 bytes`.
    static func imageText(_ image: CardImageInfo) -> String {
        "\(TerminalText.escaped(image.contentType)), \(image.size) bytes"
    }

    /// The lines a field shows: one per list item, one per line of a multi-line text, escaped.
    static func values(of field: CardField, in fields: CardFields) -> [String] {
        switch field.kind {
        case .list(let style) where style.eachOnItsOwnLine: return fields[value: field].list.map(TerminalText.escaped)
        case .list:
            let items = fields[value: field].list
            return items.isEmpty ? [] : [items.map(TerminalText.escaped).joined(separator: ", ")]
        case .number: return [fields[field]]
        case .longText:
            let text = fields[field]
            if text.isEmpty { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map {
                TerminalText.escaped(String($0.hasSuffix("\r") ? $0.dropLast() : $0))
            }
        case .shortText, .email, .phone, .url, .date:
            let text = fields[field]
            return text.isEmpty ? [] : [TerminalText.escaped(text)]
        }
    }

    /// `value` as the API's JSON (sorted keys, ISO 8601 dates with milliseconds), indented,
    /// with DEL, C1 controls and bidirectional controls written as `\u` escapes too (JSON
    /// escapes only C0), so the output is the same data and safe on a terminal. Empty arrays
    /// and objects are `[]` and `{}`, at the top (nothing to list) as inside.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = CardWalletJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return escapeInvisibles(inJSON: closingEmptyContainers(inJSON: text)) + "\n"
    }

    /// Pretty-printed JSON with each empty array or object on one line: Foundation writes an
    /// empty array as `[`, an empty line and the indented `]`. JSON strings escape their line
    /// breaks, so an empty line occurs nowhere else: dropping each one and the indentation
    /// after it leaves `[]` and `{}`.
    static func closingEmptyContainers(inJSON text: String) -> String {
        let pieces = text.components(separatedBy: "\n\n")
        guard pieces.count > 1 else { return text }
        return pieces[0] + pieces.dropFirst().map { $0.drop { $0 == " " } }.joined()
    }

    /// JSON text with the scalars a terminal would act on written as `\uXXXX`; they can only
    /// occur inside strings, where the escape means the same character.
    static func escapeInvisibles(inJSON text: String) -> String {
        guard text.unicodeScalars.contains(where: needsJSONEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsJSONEscape(scalar) {
                result += String(format: "\\u%04X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsJSONEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// The text without spaces at its end.
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
