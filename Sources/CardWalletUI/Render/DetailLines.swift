import CardModels

/// One line of the detail screen: an optional label, then text, already escaped and wrapped.
public struct DetailLine: Equatable, Sendable {
    /// How the line looks.
    public enum Role: Equatable, Sendable {
        case title, subtitle, field, muted, plain
    }

    /// The label in the left column (only on a field's first line).
    public var label: String?
    /// The text, escaped and fitted to the width.
    public var text: String
    /// How it looks.
    public var role: Role
}

/// The detail screen's lines for a card, at a width: every field, wrapped.
public enum DetailLines {
    /// Columns of the label column, including the gap after it.
    public static let labelWidth = 12

    /// The lines showing `detail` in `width` columns (the screen's, less the picture's).
    ///
    /// - Parameter pictures: how the terminal shows pictures: when they are off for a reason
    ///   (`NO_COLOR`), the image's line says so.
    public static func make(_ detail: DetailState, width: Int, pictures: PictureSupport = .unavailable) -> [DetailLine]
    {
        let valueWidth = max(10, width - 2 - labelWidth)
        let fullWidth = max(10, width - 2)
        var lines: [DetailLine] = []
        let summary = detail.summary
        let fields = detail.card?.fields

        for text in wrap(fields?.name ?? summary.name, width: fullWidth) {
            lines.append(DetailLine(label: nil, text: text, role: .title))
        }
        // The subtitle's fields, from the summary until the whole card came.
        let fromSummary: [CardField: String?] = [.title: summary.title, .company: summary.company]
        let subtitle = subtitleFields.map { field in fields?[value: field].text ?? fromSummary[field] ?? nil }
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        if !subtitle.isEmpty {
            for text in wrap(subtitle, width: fullWidth) {
                lines.append(DetailLine(label: nil, text: text, role: .subtitle))
            }
        }
        lines.append(DetailLine(label: nil, text: "", role: .field))

        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            for (index, text) in wrap(value, width: valueWidth).enumerated() {
                lines.append(DetailLine(label: index == 0 ? label : nil, text: text, role: .field))
            }
        }

        guard let card = detail.card, let fields else {
            add(CardField.email.label, summary.email)
            lines.append(DetailLine(label: nil, text: "", role: .field))
            lines.append(
                DetailLine(
                    label: nil,
                    text: detail.isLoading ? "Loading the card…" : "Could not load the rest of the card (r to retry)",
                    role: .muted))
            return lines
        }
        for field in rowFields {
            if let style = field.kind.list, style.eachOnItsOwnLine {
                for (index, item) in fields[value: field].list.enumerated() { add(index == 0 ? field.label : "", item) }
            } else if field.kind.list != nil {
                add(field.label, fields[value: field].list.joined(separator: ", "))
            } else {
                add(field.label, fields[field])
            }
        }
        // The groups of a CardDAV book it belongs to (the card API has none).
        add("Groups", card.groups.isEmpty ? nil : card.groups.map(TerminalText.escaped).joined(separator: ", "))
        let notShown = pictures.offReason.map { " · not shown: \($0)" } ?? ""
        if card.hasImage, let image = card.image {
            add("Image", "\(image.contentType), \(Format.bytes(image.size))" + notShown)
        } else if card.hasImage {
            add("Image", "yes" + notShown)
        } else {
            add("Image", "none: default avatar " + avatarFields.map { fields[$0] }.joined(separator: " "))
        }
        if !fields.vcardProperties.isEmpty {
            // Read-only: what an imported vCard held that the card has no field for.
            lines.append(DetailLine(label: nil, text: "", role: .field))
            lines.append(
                DetailLine(label: nil, text: "Kept from vCard (read-only, written back on export)", role: .subtitle))
            let kept = detail.keptLines?.revision == card.revision ? detail.keptLines?.lines : nil
            let shown = kept ?? fields.vcardProperties.map({ _ in "…" })
            for line in shown {
                for text in wrap(line, width: fullWidth) {
                    lines.append(DetailLine(label: nil, text: text, role: .plain))
                }
            }
        }
        lines.append(DetailLine(label: nil, text: "", role: .field))
        lines.append(
            DetailLine(
                label: nil, text: "version \(card.revision) · id \(TerminalText.escaped(BookCardID.bare(card.id)))",
                role: .muted)
        )
        return lines
    }

    /// The fields under the heading, in their descriptors' order.
    static let subtitleFields = fields { if case .subtitle(let rank) = $0 { rank } else { nil } }
    /// The labelled rows, in their descriptors' order.
    static let rowFields = fields { if case .row(let rank) = $0 { rank } else { nil } }
    /// The fields the Image row names when the card has no picture.
    static let avatarFields = fields { $0 == .avatar ? 0 : nil }

    /// The fields whose ``FieldDescriptor/DetailPlace`` `rank` gives a rank, by rank.
    private static func fields(_ rank: (FieldDescriptor.DetailPlace) -> Int?) -> [CardField] {
        CardField.table.compactMap { descriptor in rank(descriptor.detail).map { (descriptor.field, $0) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// `text` escaped and wrapped, its own line breaks kept.
    static func wrap(_ text: String, width: Int) -> [String] {
        var result: [String] = []
        let paragraphs = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for paragraph in paragraphs {
            result += TextLayout.wrap(TerminalText.escaped(String(paragraph)), width: width)
        }
        return result
    }
}
