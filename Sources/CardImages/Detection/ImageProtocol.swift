/// How pictures are drawn in a terminal, best first.
public enum ImageProtocol: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The kitty graphics protocol (kitty, Ghostty, and others that answer its query).
    case kitty
    /// iTerm2 inline images, OSC 1337 (iTerm2, WezTerm, …).
    case iterm
    /// DEC sixel graphics (foot, mlterm, xterm -ti vt340, Windows Terminal, tmux 3.4+, …).
    case sixel
    /// Unicode half blocks in colour: works everywhere.
    case blocks
    /// No picture: a plain placeholder (NO_COLOR, CARDWALLET_IMAGES=off, TERM=dumb).
    case off

    /// What it is called in text.
    public var description: String {
        switch self {
        case .kitty: "kitty graphics"
        case .iterm: "iTerm2 inline images"
        case .sixel: "sixel"
        case .blocks: "half blocks"
        case .off: "off"
        }
    }
}

/// The protocol chosen for a terminal, with what the encoders need to know and why it was chosen
/// (for the log pane).
public struct GraphicsChoice: Sendable, Hashable, CustomStringConvertible {
    /// The protocol.
    public var imageProtocol: ImageProtocol
    /// The colours half blocks use (also for the QR code's and placeholders' colours).
    public var depth: HalfBlockEncoder.Depth
    /// Inside tmux: kitty and iTerm2 sequences are wrapped for passthrough, and kitty images
    /// use Unicode placeholders (a plain placement would not move with tmux's panes).
    public var tmux: Bool
    /// One cell's size in pixels, as the terminal said or ``CellFit/defaultCellPixels``.
    public var cellPixels: PixelSize
    /// Why: e.g. `the terminal answered the kitty graphics query`.
    public var reason: String

    /// A choice.
    public init(
        imageProtocol: ImageProtocol, depth: HalfBlockEncoder.Depth = .trueColor, tmux: Bool = false,
        cellPixels: PixelSize = CellFit.defaultCellPixels, reason: String = ""
    ) {
        self.imageProtocol = imageProtocol
        self.depth = depth
        self.tmux = tmux
        self.cellPixels = cellPixels
        self.reason = reason
    }

    /// `images: half blocks, 24-bit (inside tmux) — COLORTERM=truecolor`.
    public var description: String {
        var text = "images: \(imageProtocol)"
        if imageProtocol == .blocks { text += ", \(depth.rawValue)" }
        if tmux && imageProtocol != .off { text += " (inside tmux)" }
        if !reason.isEmpty { text += " — \(reason)" }
        return text
    }
}
