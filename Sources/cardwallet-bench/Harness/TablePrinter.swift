/// Lays result tables out as aligned text for a terminal, or as Markdown for `docs/BENCHMARKS.md`.
enum TablePrinter {
    /// The output styles.
    enum Style: String, Sendable, CaseIterable {
        case text, markdown
    }

    static let headers = ["measurement", "size", "n", "min", "median", "max"]

    /// The table as lines of text in `style`.
    static func lines(_ table: ResultTable, style: Style) -> [String] {
        let header = headers + [table.ratioHeader, "target", "result"]
        let body = table.rows.map(cells(of:))
        var lines: [String] = []
        switch style {
        case .text:
            let widths = header.indices.map { column in
                ([header] + body).map { $0[column].count }.max() ?? 0
            }
            func line(_ cells: [String]) -> String {
                cells.enumerated().map { column, cell in
                    // Words left, numbers right.
                    let padding = String(repeating: " ", count: widths[column] - cell.count)
                    return column < 2 || column >= header.count - 2 ? cell + padding : padding + cell
                }.joined(separator: "  ")
            }
            lines.append(table.title)
            lines.append(line(header))
            lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
            lines += body.map(line)
            lines += table.notes.map { "  · " + $0 }
        case .markdown:
            lines.append("#### " + table.title)
            lines.append("")
            lines.append("| " + header.joined(separator: " | ") + " |")
            lines.append("|" + header.indices.map { $0 < 2 || $0 >= header.count - 2 ? "---|" : "---:|" }.joined())
            lines += body.map { "| " + $0.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |" }
            if !table.notes.isEmpty {
                lines.append("")
                lines += table.notes.map { "- " + $0 }
            }
        }
        lines.append("")
        return lines
    }

    private static func cells(of row: ResultRow) -> [String] {
        let numbers: [String] =
            if let summary = row.summary {
                [
                    Formatting.grouped(summary.count),
                    Formatting.format(summary.min, as: row.quantity),
                    Formatting.format(summary.median, as: row.quantity),
                    Formatting.format(summary.max, as: row.quantity),
                ]
            } else {
                ["", "", "", ""]
            }
        let ratio =
            row.ratio.map { ratio in
                ratio.count > 1
                    ? "\(Formatting.ratio(ratio.median)) (\(Formatting.ratio(ratio.min))–\(Formatting.ratio(ratio.max)))"
                    : Formatting.ratio(ratio.median)
            } ?? ""
        return [row.label, row.size] + numbers + [ratio, row.targetLabel, row.verdict]
    }
}
