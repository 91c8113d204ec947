import Foundation

/// Chooses how to draw pictures, as a pure function of the environment and of what the
/// terminal (and tmux) answered. ``TerminalProbe`` gathers the answers live.
///
/// The order (docs/Images.md says why):
/// 1. An explicit choice: the caller's (`--protocol`), else `CARDWALLET_IMAGES` (not `auto`).
/// 2. `NO_COLOR` (set and not empty) or `TERM=dumb`: off.
/// 3. Inside tmux (`TMUX` set), kitty and iTerm2 need `allow-passthrough` on.
/// 4. kitty: the terminal answered the `a=q` query with OK; or, when nobody was asked (or
///    inside tmux, where the outer terminal's reply may not come back), the terminal says it
///    is kitty or Ghostty (`KITTY_WINDOW_ID`, `TERM=xterm-kitty`/`xterm-ghostty`,
///    `TERM_PROGRAM=ghostty`, tmux's `client_termname`/`client_termtype`).
/// 5. iTerm2: `LC_TERMINAL=iTerm2`, `TERM_PROGRAM=iTerm.app` or `WezTerm` (or tmux's
///    client type says so) — unless the terminal was asked and answered nothing.
/// 6. sixel: the DA1 reply lists attribute 4 (inside tmux this is tmux's own reply: tmux 3.4+
///    built with sixel draws it itself).
/// 7. Half blocks: 24-bit when `COLORTERM` is `truecolor`/`24bit`, `TERM` ends in `-direct`
///    or the terminal is one known for it; else the 256-colour palette.
public enum ImageProtocolDetector {
    /// The choice.
    ///
    /// - Parameters:
    ///   - environment: the process environment (`TERM`, `TERM_PROGRAM`, `KITTY_WINDOW_ID`,
    ///     `LC_TERMINAL`, `TMUX`, `NO_COLOR`, `COLORTERM`, `CARDWALLET_IMAGES`).
    ///   - answers: what the terminal answered, or `nil` when it was not asked.
    ///   - tmux: what tmux said, or `nil` when it was not asked.
    ///   - requested: an explicit protocol (a command-line flag), stronger than the environment.
    public static func choose(
        environment: [String: String], answers: TerminalAnswers? = nil, tmux tmuxAnswers: TmuxAnswers? = nil,
        requested: ImageProtocol? = nil
    ) -> GraphicsChoice {
        let term = environment["TERM"] ?? ""
        let inTmux = !(environment["TMUX"] ?? "").isEmpty
        let identity = TerminalIdentity(environment: environment, tmux: tmuxAnswers)
        let depth = identity.trueColor ? HalfBlockEncoder.Depth.trueColor : .palette256
        let cellPixels = answers?.cellPixels ?? CellFit.defaultCellPixels
        func choice(_ imageProtocol: ImageProtocol, _ reason: String) -> GraphicsChoice {
            GraphicsChoice(
                imageProtocol: imageProtocol, depth: depth, tmux: inTmux, cellPixels: cellPixels, reason: reason)
        }

        if let requested { return choice(requested, "asked for on the command line") }
        switch ImageSetting.parse(environment["CARDWALLET_IMAGES"]) {
        case .some(.some(let forced)): return choice(forced, "CARDWALLET_IMAGES=\(forced.rawValue)")
        case .none:
            // Not a known value: say so in the reason and detect as for auto.
            let bad = TerminalTextSafe.clip(environment["CARDWALLET_IMAGES"] ?? "")
            var detected = choose(
                environment: environment.filter { $0.key != "CARDWALLET_IMAGES" }, answers: answers, tmux: tmuxAnswers)
            detected.reason += "; CARDWALLET_IMAGES=\(bad) is not one of \(ImageSetting.names) and was ignored"
            return detected
        case .some(.none): break
        }
        if !(environment["NO_COLOR"] ?? "").isEmpty { return choice(.off, "NO_COLOR is set") }
        if term == "dumb" { return choice(.off, "TERM=dumb") }

        let passthrough = !inTmux || tmuxAnswers?.allowPassthrough == true
        let askedAndSilent = answers.map { !$0.answeredAnything } ?? false
        if askedAndSilent {
            return choice(.blocks, "the terminal answered no query")
        }
        let trustIdentity = answers == nil || inTmux
        if answers?.kittyGraphics == true, passthrough {
            return choice(.kitty, "the terminal answered the kitty graphics query")
        }
        if identity.kitty, trustIdentity, passthrough {
            return choice(.kitty, "the terminal is \(identity.name ?? "kitty")")
        }
        if identity.iterm, passthrough {
            return choice(.iterm, "the terminal is \(identity.name ?? "iTerm2")")
        }
        if answers?.sixel == true {
            return choice(.sixel, inTmux ? "tmux draws sixel (its DA1 lists 4)" : "the terminal's DA1 lists sixel (4)")
        }
        var reason = identity.trueColor ? "24-bit colour" : "256 colours"
        if inTmux, !passthrough, identity.kitty || identity.iterm || answers?.kittyGraphics == true {
            reason +=
                "; tmux's allow-passthrough is off (tmux set -g allow-passthrough on enables \(identity.iterm ? "iTerm2 images" : "kitty graphics"))"
        }
        return choice(.blocks, reason)
    }
}

/// `CARDWALLET_IMAGES`: `auto` or a protocol.
public enum ImageSetting {
    /// The accepted values.
    public static let names = "auto, kitty, iterm, sixel, blocks, off"

    /// `.some(nil)` for auto (or unset, or empty), `.some(protocol)` for a protocol, `nil` for
    /// anything else.
    public static func parse(_ value: String?) -> ImageProtocol?? {
        let text = (value ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if text.isEmpty || text == "auto" { return .some(nil) }
        if let forced = ImageProtocol(rawValue: text) { return .some(forced) }
        return nil
    }
}

/// What the environment and tmux say the terminal is.
struct TerminalIdentity {
    var kitty = false
    var iterm = false
    var trueColor = false
    var name: String?

    init(environment: [String: String], tmux: TmuxAnswers?) {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        let outerTerm = tmux?.clientTermName ?? ""
        let outerType = (tmux?.clientTermType ?? "").lowercased()
        if !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty" || outerTerm == "xterm-kitty"
            || outerType.hasPrefix("kitty")
        {
            kitty = true
            name = "kitty"
        } else if program.lowercased() == "ghostty" || term == "xterm-ghostty" || outerTerm == "xterm-ghostty"
            || outerType.hasPrefix("ghostty")
        {
            kitty = true
            name = "Ghostty"
        } else if environment["LC_TERMINAL"] == "iTerm2" || program == "iTerm.app" || outerType.hasPrefix("iterm2") {
            iterm = true
            name = "iTerm2"
        } else if program == "WezTerm" || outerType.hasPrefix("wezterm") {
            iterm = true
            name = "WezTerm"
        }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        trueColor = colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") || kitty || iterm
    }
}

/// Environment text shown in a reason: printable ASCII only, at most 40 characters.
enum TerminalTextSafe {
    static func clip(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(40).map(Character.init))
    }
}
