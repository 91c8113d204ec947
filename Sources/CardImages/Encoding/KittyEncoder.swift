import Foundation

/// The kitty graphics protocol (`ESC _ G <keys> ; <base64> ESC \`): PNG payloads (`f=100`)
/// sent directly (`t=d`) in chunks of at most 4096 base64 bytes, every reply suppressed
/// (`q=2`, repeated on each chunk: kitty reads it per chunk), optionally wrapped for tmux.
///
/// Two ways to show the image:
/// - **Unicode placeholders** (``virtualPlacement(png:imageID:cells:tmux:)`` plus
///   ``placeholderCells(imageID:cells:)``): the image is sent once with a virtual placement
///   (`U=1`), and the terminal draws it wherever cells hold U+10EEEE with diacritics numbering
///   the row and column, in a foreground colour that encodes the image id. The cells are text,
///   so curses owns them: redraws, overlays, scrolling and tmux just work.
/// - **A plain placement** (``placement(png:imageID:cells:tmux:)``): drawn at the cursor, over
///   `cells`; simplest for printing to standard output outside tmux.
public enum KittyEncoder {
    /// The placeholder character.
    public static let placeholder: Character = "\u{10EEEE}"
    /// Image ids must fit the 24-bit foreground colour of placeholder cells.
    public static let maximumImageID: UInt32 = 0xFF_FFFF
    /// The most rows or columns a placeholder image spans (the diacritics table's length).
    public static var maximumSpan: Int { KittyDiacritics.codePoints.count }
    private static let chunkSize = 4096

    /// Transmits `png` and creates a virtual placement over `cells` for placeholders.
    ///
    /// - Precondition: `imageID` is 1...``maximumImageID``; `cells` is at most
    ///   ``maximumSpan`` a side (``ImageRenderer`` ensures both).
    public static func virtualPlacement(png: [UInt8], imageID: UInt32, cells: CellSize, tmux: Bool) -> [UInt8] {
        precondition(imageID >= 1 && imageID <= maximumImageID, "kitty image id out of range")
        return transmit(png, keys: "a=T,U=1,f=100,t=d,i=\(imageID),c=\(cells.columns),r=\(cells.rows),q=2", tmux: tmux)
    }

    /// Transmits `png` and shows it at the cursor over `cells`; the cursor moves past it.
    public static func placement(png: [UInt8], imageID: UInt32, cells: CellSize, tmux: Bool) -> [UInt8] {
        precondition(imageID >= 1 && imageID <= maximumImageID, "kitty image id out of range")
        return transmit(png, keys: "a=T,f=100,t=d,i=\(imageID),c=\(cells.columns),r=\(cells.rows),q=2", tmux: tmux)
    }

    /// Deletes image `imageID` and frees its data in the terminal (`a=d,d=I`).
    public static func delete(imageID: UInt32, tmux: Bool) -> [UInt8] {
        let command = Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8)
        return tmux ? TmuxPassthrough.wrap(command) : command
    }

    /// The placeholder cells of image `imageID` over `cells`: each U+10EEEE, the row's
    /// diacritic, the column's diacritic, in the foreground colour `#rrggbb` = the id.
    public static func placeholderCells(imageID: UInt32, cells: CellSize) -> [[ImageCell]] {
        let color = CellColor.rgb(
            RGBColor(red: UInt8(imageID >> 16 & 0xFF), green: UInt8(imageID >> 8 & 0xFF), blue: UInt8(imageID & 0xFF)))
        return (0..<cells.rows).map { row in
            (0..<cells.columns).map { column in
                var grapheme = String(placeholder)
                grapheme.unicodeScalars.append(KittyDiacritics.mark(row).unicodeScalars.first!)
                grapheme.unicodeScalars.append(KittyDiacritics.mark(column).unicodeScalars.first!)
                return ImageCell(character: grapheme, foreground: color, background: nil)
            }
        }
    }

    private static func transmit(_ payload: [UInt8], keys: String, tmux: Bool) -> [UInt8] {
        let encoded = Array(Data(payload).base64EncodedString().utf8)
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count + encoded.count / chunkSize * 40 + 64)
        var start = 0
        repeat {
            let end = min(encoded.count, start + chunkSize)
            let more = end < encoded.count
            var chunk: [UInt8] = Array("\u{1B}_G".utf8)
            if start == 0 {
                chunk += Array(keys.utf8)
                if more { chunk += Array(",m=1".utf8) }
            } else {
                chunk += Array("m=\(more ? 1 : 0),q=2".utf8)
            }
            chunk.append(UInt8(ascii: ";"))
            chunk += encoded[start..<end]
            chunk += [0x1B, 0x5C]
            output += tmux ? TmuxPassthrough.wrap(chunk) : chunk
            start = end
        } while start < encoded.count
        return output
    }
}

/// iTerm2's inline images (`ESC ] 1337 ; File = inline=1;… : <base64> BEL`), also understood by
/// WezTerm, Konsole and others. The terminal decodes the file (PNG or JPEG) and fits it into
/// the given cells, aspect kept.
public enum ITermEncoder {
    /// The escape sequence showing `file` at the cursor over `cells`.
    public static func inline(file: [UInt8], cells: CellSize, tmux: Bool) -> [UInt8] {
        var sequence = Array(
            "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(cells.columns);height=\(cells.rows);preserveAspectRatio=1:"
                .utf8)
        sequence += Array(Data(file).base64EncodedString().utf8)
        sequence.append(0x07)
        return tmux ? TmuxPassthrough.wrap(sequence) : sequence
    }
}
