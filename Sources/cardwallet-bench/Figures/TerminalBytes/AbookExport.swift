import CardModels

/// Our cards in the native addressbook format of abook 0.6 (Debian package `abook`), and an
/// abookrc that lists them in the same four columns as the TUI, for §4's comparison.
///
/// The format is line-based: a `[format]` header, then one `[n]` section per contact with
/// `key=value` lines. abook's own fields take what they can hold (name, email, phone, address,
/// url, notes, anniversary, groups); company, title and department go to custom fields the
/// abookrc declares.
enum AbookExport {
    /// The fields of one contact, in the order they are written: (abook key, value).
    static func fields(of card: CardFields) -> [(key: String, value: String)] {
        let pairs: [(String, String?)] = [
            ("name", card.name),
            ("email", card.email),
            ("address", card.address),
            ("phone", card.phone),
            ("url", card.website),
            ("notes", card.bio),
            ("anniversary", card.birthday),
            ("groups", card.tags.isEmpty ? nil : card.tags.joined(separator: ",")),
            ("company", card.company),
            ("title", card.title),
            ("department", card.department),
        ]
        return pairs.compactMap { key, value in
            guard let value else { return nil }
            let clean = Self.value(value)
            return clean.isEmpty ? nil : (key, clean)
        }
    }

    /// The addressbook file holding `cards`, in order.
    static func addressBook(_ cards: [CardFields]) -> String {
        var lines = ["# abook addressbook file", "", "[format]", "program=abook", "version=0.6.1", ""]
        for (index, card) in cards.enumerated() {
            lines.append("")
            lines.append("[\(index)]")
            lines += fields(of: card).map { "\($0.key)=\($0.value)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An abookrc declaring the custom fields and an `index_format` with the TUI list's columns
    /// — name, company, title, email — at the widths the TUI gives them on a screen `columns`
    /// wide (its weights 28/24/20/28 % of the width less margins and 2-column gaps).
    static func configuration(columns: Int) -> String {
        let widths = columnWidths(screen: columns)
        return """
            # Written by cardwallet-bench (§4): the TUI's list columns, for a like-for-like screen.
            field company = Company
            field title = Title
            field department = Department
            set index_format=" {name:\(widths[0])}  {company:\(widths[1])}  {title:\(widths[2])}  {email}"

            """
    }

    /// The TUI list's name, company and title widths at `screen` columns (email takes the rest).
    static func columnWidths(screen: Int) -> [Int] {
        let available = max(0, screen - 2 - 2 * 3)
        return [28, 24, 20].map { available * $0 / 100 }
    }

    /// `text` fit for one `key=value` line: control characters (line breaks included) become
    /// spaces, and surrounding spaces go.
    static func value(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar
        }
        var result = String(String.UnicodeScalarView(scalars))
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}
