import CardModels

extension Key {
    /// How help and hints write the key: `j`, `Ctrl-D`, `PgDn`, `↑`, `Shift-Tab`.
    public var displayName: String {
        switch self {
        case .char(" "): "Space"
        case .char(let character): TerminalText.escaped(String(character))
        case .ctrl(let character): "Ctrl-" + String(character).uppercased()
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .escape: "Esc"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let number): "F\(number)"
        }
    }
}
