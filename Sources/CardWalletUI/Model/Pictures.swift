/// A colour given explicitly, not as a role: the pixels of a picture, the modules of a QR code,
/// the image id of a kitty placeholder. A backend without colours draws the cell's character
/// in the terminal's own colours.
public enum TerminalColor: Hashable, Sendable {
    /// 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)
    /// One of the 256 colours of the xterm palette.
    case indexed(UInt8)
}

/// One cell of a picture drawn with text: half blocks, or a kitty placeholder.
public struct PictureCell: Hashable, Sendable {
    /// The grapheme, one column wide (`▀`, or U+10EEEE with its diacritics).
    public var character: Character
    /// The foreground colour, or the terminal's own.
    public var foreground: TerminalColor?
    /// The background colour, or the terminal's own.
    public var background: TerminalColor?

    /// A cell.
    public init(_ character: Character, foreground: TerminalColor?, background: TerminalColor?) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }
}

/// A box of cells a picture may take.
public struct PictureBox: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// A box.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// `30×12`.
    public var description: String { "\(columns)×\(rows)" }
}

/// A picture made ready for the terminal by the glue, as plain values: the cells it covers and
/// either the cells to draw (half blocks, kitty placeholders) or the bytes the terminal draws it
/// from (iTerm2, sixel), which the backend writes at the picture's place after each frame that
/// repainted any of its rows.
public struct TerminalPicture: Equatable, Sendable {
    /// How the picture reaches the screen.
    public enum Content: Equatable, Sendable {
        /// Cells for the grid, row by row.
        case cells([[PictureCell]])
        /// Bytes the terminal draws at the cursor over the picture's cells.
        case escapes([UInt8])
    }

    /// The cells it covers.
    public var size: PictureBox
    /// What to draw.
    public var content: Content
    /// Bytes to write once when the picture arrives (kitty's transmission of the image data);
    /// empty for the other protocols.
    public var transmit: [UInt8]
    /// Bytes that free the picture in the terminal once it is no longer shown (kitty's delete).
    public var release: [UInt8]

    /// A picture.
    public init(size: PictureBox, content: Content, transmit: [UInt8] = [], release: [UInt8] = []) {
        self.size = size
        self.content = content
        self.transmit = transmit
        self.release = release
    }

    /// The bytes the picture costs on the terminal: the transmission, the escapes, or the
    /// cells' characters (colours not counted).
    public var byteCount: Int {
        switch content {
        case .cells(let rows): transmit.count + rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.character.utf8.count } }
        case .escapes(let bytes): transmit.count + bytes.count
        }
    }
}

/// How this terminal shows pictures, chosen once at start by the glue.
public struct PictureSupport: Equatable, Sendable {
    /// The way pictures reach the screen.
    public enum Kind: Equatable, Sendable {
        /// No pictures: a one-line placeholder says why.
        case off
        /// Cells in the grid (half blocks, kitty placeholders).
        case cells
        /// Escape bytes the backend writes over the grid (iTerm2, sixel).
        case escapes
    }

    /// The way pictures reach the screen.
    public var kind: Kind
    /// The protocol's name for people (`half blocks`, `sixel`, …).
    public var name: String
    /// Why pictures are off (`NO_COLOR is set`), when they are.
    public var offReason: String?

    /// A choice.
    public init(kind: Kind, name: String, offReason: String? = nil) {
        self.kind = kind
        self.name = name
        self.offReason = offReason
    }

    /// No pictures, with `reason`.
    public static func off(_ reason: String) -> PictureSupport {
        PictureSupport(kind: .off, name: "off", offReason: reason)
    }

    /// No pictures and nothing to say about it (the UI core on its own, the tests).
    public static let unavailable = PictureSupport(kind: .off, name: "off")

    /// Half blocks: what the tests and a terminal that answers nothing get.
    public static let halfBlocks = PictureSupport(kind: .cells, name: "half blocks")
}

/// A QR code's modules, from the glue.
public struct QRSymbol: Equatable, Sendable {
    /// Modules per side, without the quiet zone.
    public var size: Int
    /// `size × size` modules, row by row: `true` is dark.
    public var modules: [Bool]
    /// What the code holds, when it is less than the whole card (`without the bio and address`).
    public var note: String?

    /// The quiet zone drawn around the symbol, in modules (the standard's 4).
    public static let quietZone = 4

    /// A symbol.
    public init(size: Int, modules: [Bool], note: String? = nil) {
        self.size = size
        self.modules = modules
        self.note = note
    }

    /// Whether the module at (`x`, `y`) is dark; the quiet zone around it is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size, y * size + x < modules.count else { return false }
        return modules[y * size + x]
    }

    /// Modules per side with the quiet zone.
    public var sideWithQuietZone: Int { size + 2 * Self.quietZone }

    /// The cells the symbol needs: a column per module and a row per two, quiet zone included.
    public var requiredCells: PictureBox {
        PictureBox(columns: sideWithQuietZone, rows: (sideWithQuietZone + 1) / 2)
    }
}
