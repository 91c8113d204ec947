import ArgumentParser
import CardBackend
import CardImages
import CardModels
import CardWalletLive
import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `cardwallet image <id>`: the card's picture on standard output, in a terminal graphics protocol.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Print a card's image in the terminal.",
        discussion: """
            Downloads the card's image (PNG or JPEG) and writes it to standard output as the \
            terminal can show it: the kitty graphics protocol, iTerm2 inline images, sixel, or \
            Unicode half blocks in colour, which work everywhere. The image is scaled to --width \
            columns (default: the terminal's width, at most 60; 40 when standard output is not a \
            terminal) and to the terminal's height, its aspect kept.

            With --protocol auto (the default) the terminal is asked what it supports (kitty's \
            graphics query, DA1 for sixel; inside tmux, tmux's allow-passthrough), within a \
            quarter of a second; CARDWALLET_IMAGES=auto|kitty|iterm|sixel|blocks|off overrides \
            the answer, NO_COLOR turns pictures off (a one-line placeholder instead). When \
            standard output is not a terminal, auto means half blocks. docs/Images.md explains \
            the choice.

            Examples:
              cardwallet image card_3kVq
              cardwallet image card_3kVq --protocol blocks --width 30
              cardwallet image card_3kVq --protocol sixel > card.six

            Records the card and its image in the local card cache; when the server cannot be \
            reached (or with --offline) shows the cached image of the card's version and says \
            `offline — cards as of <time>` on standard error. An image never shown or exported \
            while online is not cached: that is said, with exit status 6.

            Exit status: 0 shown (also offline from the cache); 1 the card has no image or it \
            cannot be decoded; 3 log in first; 4 no such card; 6 server unreachable and the card \
            or its image not cached; 64 usage error.
            """)

    /// `--protocol`: a protocol or `auto`.
    enum ProtocolOption: String, ExpressibleByArgument, CaseIterable {
        case auto, kitty, iterm, sixel, blocks

        var requested: ImageProtocol? { self == .auto ? nil : ImageProtocol(rawValue: rawValue) }
    }

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(help: ArgumentHelp("The card's id, as `list` shows it.", valueName: "id"))
    var id: String

    /// `--protocol`.
    @Option(
        name: .customLong("protocol"),
        help: ArgumentHelp("How to draw it: auto, kitty, iterm, sixel or blocks.", valueName: "protocol"))
    var imageProtocol: ProtocolOption = .auto

    /// `--width`.
    @Option(help: ArgumentHelp("The most columns the image may take (1–1000).", valueName: "columns"))
    var width: Int?

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if let width, !(1...1000).contains(width) {
            throw ValidationError("--width must be between 1 and 1000 columns, not \(width).")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            let wallet = await context.wallet()
            let answer = try await wallet.card(id: id, context.mode)
            let card = answer.value
            guard card.hasImage || card.image != nil else {
                CommandContext.sayOffline(answer.offlineAsOf)
                if let link = card.pictureLinkNotLoaded {
                    throw CommandFailure(
                        "The picture of \(TerminalText.escaped(id)) is a link to another address "
                            + "(\(TerminalText.escaped(link))), which the wallet never loads: only pictures on the "
                            + "server's own address are shown, so that no one else learns who looked at the card.")
                }
                throw CommandFailure("The card \(TerminalText.escaped(id)) has no image.")
            }
            let picture = try await wallet.image(of: card, offline: context.offline || answer.offlineAsOf != nil)
            CommandContext.sayOffline(answer.offlineAsOf ?? picture.offlineAsOf)
            let image = picture.value
            let environment = ProcessInfo.processInfo.environment
            let graphics = Self.graphics(requested: imageProtocol.requested, environment: environment)
            let box = Self.box(width: width)
            let rendered: RenderedImage
            do throws(ImageRenderError) {
                rendered = try ImageRenderer.render(
                    file: Array(image.data), in: box, graphics: graphics,
                    kittyImageID: UInt32.random(in: 1...0xFF_FFFF),
                    kittyPlacement: .cursor)
            } catch {
                throw CommandFailure(
                    "The image of card \(TerminalText.escaped(id)) cannot be shown. \(error.description)")
            }
            if rendered.imageProtocol == .off {
                Console.out(
                    "[image: \(TerminalText.escaped(image.description)); pictures are off: \(graphics.reason)]\n")
                return
            }
            var output = String(decoding: rendered.streamBytes, as: UTF8.self)
            // Protocols drawn by the terminal leave the cursor on the picture's last row.
            if rendered.cellRows.isEmpty { output += "\n" }
            Console.out(output)
        }
    }

    /// The protocol: as asked; else what the terminal answers when standard output is one;
    /// else half blocks (nothing to ask, and a file should work anywhere it is shown).
    static func graphics(requested: ImageProtocol?, environment: [String: String]) -> GraphicsChoice {
        if requested != nil || isatty(STDOUT_FILENO) == 1 {
            return TerminalProbe.detect(environment: environment, requested: requested)
        }
        var choice = ImageProtocolDetector.choose(environment: environment, answers: TerminalAnswers())
        if choice.imageProtocol == .blocks { choice.reason = "standard output is not a terminal" }
        return choice
    }

    /// The cells available: `--width` (or the terminal's width up to 60, or 40) by the
    /// terminal's height less one row for the prompt (or as many rows as the width needs).
    static func box(width: Int?) -> CellSize {
        var size = winsize()
        let terminal = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 1
        let columns = width ?? (terminal ? min(Int(size.ws_col), 60) : 40)
        let rows = terminal ? Int(size.ws_row) - 1 : 1000
        return CellSize(columns: columns, rows: rows)
    }
}
