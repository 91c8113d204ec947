import CNCurses
import CardWalletUI

/// How a ``Style`` becomes curses attributes and a colour pair.
///
/// Colour roles get one pair each, numbered by the role's raw value (`normal` is pair 0, the
/// terminal's own colours). Without colours (`NO_COLOR`, or a terminal that has none) only the
/// attributes remain, so everything that matters must be visible without colour: the UI core
/// marks the selection with reverse video.
struct Palette: Hashable, Sendable {
    /// Attributes and colour pair for one cell, as `setcchar` takes them.
    struct Rendition: Hashable, Sendable {
        var attributes: attr_t
        var pair: Int16
        /// Explicit colours (curses colour numbers, -1 for the terminal's own), for a pair the
        /// backend allocates when it paints (`alloc_pair`); `nil` for the role's pair.
        var explicit: ExplicitPair?

        init(attributes: attr_t, pair: Int16, explicit: ExplicitPair? = nil) {
            self.attributes = attributes
            self.pair = pair
            self.explicit = explicit
        }
    }

    /// A foreground and a background colour number.
    struct ExplicitPair: Hashable, Sendable {
        var foreground: Int32
        var background: Int32
    }

    /// One `init_pair` call.
    struct PairDefinition: Hashable, Sendable {
        var pair: Int16
        var foreground: Int16
        var background: Int16
    }

    /// Whether cells are coloured at all.
    let usesColor: Bool
    /// Whether the terminal can show grey (16 colours or more).
    let hasBrightColors: Bool
    /// Whether `use_default_colors` worked, so pairs keep the terminal's own background.
    let usesDefaultBackground: Bool
    /// How many colours the terminal has (`COLORS`): 8, 16, 256, or 2²⁴ for a direct-colour
    /// entry such as `xterm-direct`, where colour numbers are RGB values.
    let colorCount: Int

    /// A palette that only uses attributes.
    static let monochrome = Palette(usesColor: false, colorCount: 0, usesDefaultBackground: false)

    init(usesColor: Bool, colorCount: Int, usesDefaultBackground: Bool) {
        self.usesColor = usesColor
        self.hasBrightColors = usesColor && colorCount >= 16
        self.usesDefaultBackground = usesColor && usesDefaultBackground
        self.colorCount = usesColor ? colorCount : 0
    }

    /// Whether the environment allows colour: `NO_COLOR` set to anything but the empty string
    /// turns it off (https://no-color.org).
    static func environmentAllowsColor(noColor: String?) -> Bool {
        guard let noColor else { return true }
        return noColor.isEmpty
    }

    /// The pairs to define after `start_color`, one per coloured role.
    var pairDefinitions: [PairDefinition] {
        guard usesColor else { return [] }
        let background: Int16 = usesDefaultBackground ? -1 : Int16(COLOR_BLACK)
        return Style.Color.allCases.compactMap { role in
            foreground(for: role).map {
                PairDefinition(pair: Int16(role.rawValue), foreground: $0, background: background)
            }
        }
    }

    /// The attributes and pair that draw `style`.
    func rendition(for style: Style) -> Rendition {
        var attributes = cn_attr_normal()
        if style.attributes.contains(.bold) { attributes |= cn_attr_bold() }
        if style.attributes.contains(.reverse) { attributes |= cn_attr_reverse() }
        if style.attributes.contains(.underline) { attributes |= cn_attr_underline() }
        if style.attributes.contains(.dim) { attributes |= cn_attr_dim() }
        // Muted text is grey where the terminal has grey, and dim everywhere else.
        if style.color == .muted, foreground(for: .muted) == nil { attributes |= cn_attr_dim() }
        let pair: Int16 = foreground(for: style.color) == nil ? 0 : Int16(style.color.rawValue)
        guard style.hasExplicitColors, usesColor else { return Rendition(attributes: attributes, pair: pair) }
        let background: Int32 = usesDefaultBackground ? -1 : Int32(COLOR_BLACK)
        let explicit = ExplicitPair(
            foreground: style.foreground.map(colorNumber) ?? (usesDefaultBackground ? -1 : Int32(COLOR_WHITE)),
            background: style.background.map(colorNumber) ?? background)
        return Rendition(attributes: attributes, pair: 0, explicit: explicit)
    }

    /// The curses colour number nearest `color` on this terminal: RGB itself on a direct-colour
    /// terminal, else the xterm 256-colour palette, else the 16 or 8 basic colours.
    func colorNumber(_ color: TerminalColor) -> Int32 {
        switch color {
        case .rgb(let red, let green, let blue):
            if colorCount >= 1 << 24 { return Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }
            if colorCount >= 256 { return Int32(XtermColors.nearest(red, green, blue)) }
            return Int32(XtermColors.nearestBasic(red, green, blue, count: colorCount >= 16 ? 16 : 8))
        case .indexed(let index):
            if colorCount >= 1 << 24 {
                let (red, green, blue) = XtermColors.rgb(index)
                return Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
            }
            if colorCount >= 256 || Int(index) < colorCount { return Int32(index) }
            let (red, green, blue) = XtermColors.rgb(index)
            return Int32(XtermColors.nearestBasic(red, green, blue, count: colorCount >= 16 ? 16 : 8))
        }
    }

    /// The foreground colour of `role`, or `nil` when it is drawn in the terminal's own colours.
    private func foreground(for role: Style.Color) -> Int16? {
        guard usesColor else { return nil }
        switch role {
        case .normal: return nil
        case .accent: return Int16(COLOR_CYAN)
        case .error: return Int16(COLOR_RED)
        case .success: return Int16(COLOR_GREEN)
        case .warning: return Int16(COLOR_YELLOW)
        case .muted: return hasBrightColors ? Int16(COLOR_BLACK + 8) : nil
        }
    }
}
