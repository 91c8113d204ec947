import CNCurses
import CardWalletUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One cell for the backend to write: where, which characters, how.
struct PaintOperation: Hashable, Sendable {
    var x: Int
    var y: Int
    /// A spacing character followed by at most four combining ones, as wide-character values.
    var text: [UInt32]
    var rendition: Palette.Rendition
}

/// Turns the runs of changed cells into cell writes: a pure function, tested without a terminal.
///
/// The grid promises safe characters whose width matches the cell. The planner does not trust
/// that blindly: it never sends a C0/C1 control character, and it draws `?` (or a full-width
/// `？` in a wide cell) for a character that curses would measure differently from the grid,
/// because a width mismatch would shift every later cell of the row on the real terminal.
enum PaintPlanner {
    /// The characters curses can hold in one cell besides the spacing one (`CCHARW_MAX - 1`).
    static let maximumCombiningCharacters = 4

    /// The writes that paint `runs` on a screen of `columns` × `rows`.
    /// - Parameters:
    ///   - runs: The changed cells, from ``Grid/changes(from:)``.
    ///   - columns: The screen's width; cells beyond it are dropped.
    ///   - rows: The screen's height; cells below it are dropped.
    ///   - palette: How styles become attributes and colour pairs.
    ///   - displayWidth: The terminal's idea of a character's width (`wcwidth`).
    static func operations(
        for runs: [Grid.Run],
        columns: Int,
        rows: Int,
        palette: Palette,
        displayWidth: (UInt32) -> Int = systemDisplayWidth
    ) -> [PaintOperation] {
        var operations: [PaintOperation] = []
        for run in runs where run.y >= 0 && run.y < rows {
            for (offset, cell) in run.cells.enumerated() {
                let x = run.x + offset
                guard cell.width > 0, x >= 0, x < columns else { continue }
                // A wide character in the last column would wrap onto the next row.
                let width = cell.width >= 2 && x + 1 < columns ? 2 : 1
                let text = glyph(for: cell.character, width: width, displayWidth: displayWidth)
                operations.append(
                    PaintOperation(x: x, y: run.y, text: text, rendition: palette.rendition(for: cell.style))
                )
            }
        }
        return operations
    }

    /// The wide characters that show `character` in a cell `width` columns wide.
    static func glyph(for character: Character, width: Int, displayWidth: (UInt32) -> Int) -> [UInt32] {
        let replacement: [UInt32] = width == 2 ? [0xFF1F] : [0x3F]  // "？" or "?"
        var scalars = character.unicodeScalars.makeIterator()
        guard let base = scalars.next()?.value,
            !isControl(base),
            displayWidth(base) == width
        else { return replacement }
        var text = [base]
        while let next = scalars.next(), text.count <= maximumCombiningCharacters {
            // Keep combining marks (variation selectors are marks too). The rest of an emoji
            // sequence or a flag cannot share a curses cell, and a joiner or a bidi control
            // left dangling would act on the next cell: stop at the first of those.
            guard isCombiningMark(next), displayWidth(next.value) == 0 else { break }
            text.append(next.value)
        }
        return text
    }

    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: true
        default: false
        }
    }

    /// C0 controls, DEL and C1 controls: bytes a terminal acts on instead of showing.
    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// `wcwidth` in the current locale (the backend makes sure it is a UTF-8 one).
    static func systemDisplayWidth(_ value: UInt32) -> Int {
        guard let wide = wchar_t(exactly: value) else { return -1 }
        return Int(cn_wcwidth(wide))
    }
}
