public import CardImages
public import CardWalletUI
import Foundation

/// The interface's choice of picture protocol, made once before curses starts.
///
/// In order: `CARDWALLET_IMAGES` (read by `CardImages`, as `cardwallet image` does), then the
/// `ui.images` setting (the config file or `CARDWALLET_UI_IMAGES`), then what the terminal
/// answers (docs/Images.md). Half blocks use the 256-colour palette unless `TERM` names a
/// direct-colour entry (`xterm-direct`): curses sets 24-bit colours only there.
public enum GraphicsSetup {
    /// Detects the protocol for the interface on this terminal.
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - configured: the `ui.images` setting (`auto` or a protocol), when there is one.
    ///   - probe: asks the terminal (``CardImages/TerminalProbe/detect(environment:requested:timeout:)``);
    ///     tests pass their own.
    public static func detect(
        environment: [String: String], configured: String?,
        probe: (_ environment: [String: String], _ requested: ImageProtocol?) -> GraphicsChoice = {
            TerminalProbe.detect(environment: $0, requested: $1)
        }
    ) -> GraphicsChoice {
        var choice: GraphicsChoice
        let fromEnvironment = !(environment["CARDWALLET_IMAGES"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        if !fromEnvironment, let configured, case .some(.some(let requested)) = ImageSetting.parse(configured) {
            choice = probe(environment, requested)
            choice.reason = "ui.images=\(requested.rawValue) in the settings"
        } else {
            choice = probe(environment, nil)
        }
        return forInterface(choice, environment: environment)
    }

    /// `choice` as the interface can draw it: half blocks in 256 colours unless curses can set
    /// 24-bit colours (`TERM` ends in `-direct`).
    public static func forInterface(_ choice: GraphicsChoice, environment: [String: String]) -> GraphicsChoice {
        var choice = choice
        let direct = (environment["TERM"] ?? "").hasSuffix("-direct")
        if choice.imageProtocol == .blocks, choice.depth == .trueColor, !direct {
            choice.depth = .palette256
            choice.reason += choice.reason.isEmpty ? "" : "; "
            choice.reason += "256 colours in the interface (curses sets 24-bit colours only with a -direct TERM)"
        }
        return choice
    }

    /// How the UI core draws pictures of `choice`.
    public static func support(for choice: GraphicsChoice) -> PictureSupport {
        switch choice.imageProtocol {
        case .off: .off(choice.reason.isEmpty ? "pictures are off" : choice.reason)
        case .blocks: PictureSupport(kind: .cells, name: "half blocks")
        case .kitty: PictureSupport(kind: .cells, name: "kitty graphics")
        case .iterm: PictureSupport(kind: .escapes, name: "iTerm2 inline images")
        case .sixel: PictureSupport(kind: .escapes, name: "sixel")
        }
    }
}
