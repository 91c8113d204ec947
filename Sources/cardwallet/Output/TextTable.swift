import CardModels
import CardWalletUI

/// A plain-text table whose columns line up on a terminal: widths are measured in display
/// columns (a Hangul or CJK character and most emoji take two), cells are escaped with
/// `TerminalText` before they are measured, and cells wider than their column's limit are clipped
/// with an ellipsis.
///
/// ```text
/// ID        NAME    COMPANY
/// card_1    김민지  Acme
/// card_22   Ada     Analytical Engines
/// ```
struct TextTable: Sendable {
    /// One column: its heading and the most columns a cell may take (`nil`: never clipped).
    struct Column: Sendable {
        /// The heading, shown in the first row.
        var title: String
        /// The widest a cell may be before it is clipped.
        var maximumWidth: Int?

        /// A column.
        init(_ title: String, maximumWidth: Int? = nil) {
            self.title = title
            self.maximumWidth = maximumWidth
        }
    }

    /// The columns.
    var columns: [Column]
    /// The rows, one string per column (missing cells are empty; untrusted text is fine).
    var rows: [[String]]
    /// The spaces between columns.
    var gap = 2

    /// The table as lines, heading first, without trailing spaces.
    func lines() -> [String] {
        let cells: [[String]] =
            [columns.map(\.title)]
            + rows.map { row in
                columns.indices.map { index in
                    let text = index < row.count ? TerminalText.escaped(row[index]) : ""
                    guard let limit = columns[index].maximumWidth else { return text }
                    return TextLayout.clip(text, to: limit)
                }
            }
        var widths = columns.map { _ in 0 }
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        return cells.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - DisplayWidth.of(cell) + gap)
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The table as text, one line per row, ending with a newline.
    func render() -> String {
        lines().joined(separator: "\n") + "\n"
    }
}
