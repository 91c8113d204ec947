import ArgumentParser
import CardBackend
import CardImages
import CardModels
import CardWalletLive
import Foundation
import Networking

/// `cardwallet qr <id>`: the card as a QR code holding its vCard 3.0, the same symbol the
/// TUI's `Q` shows.
struct QRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Print a card as a QR code a phone camera reads.",
        discussion: """
            The code holds the card's vCard 3.0 without the photo, written as `cardwallet \
            export` writes it; when the whole card is more than a QR code holds, the fields \
            that fit, the name, email and phone always first. It is encoded with libqrencode \
            (error correction level M) and printed with the characters ▀ ▄ █ and spaces, a full \
            block for a light module, as `qrencode -t UTF8` does for terminals with a dark \
            background; --invert swaps them for light backgrounds. The quiet zone of 4 modules \
            is included: keep it when you copy the code.

            Examples:
              cardwallet qr card_3kVq
              cardwallet qr card_3kVq --invert
              cardwallet qr card_3kVq --png card.png

            When the server cannot be reached (or with --offline) the card comes from the local \
            card cache and `offline — cards as of <time>` is said on standard error (a card \
            never shown in full while online is not cached).

            Exit status: 0 printed or written (also offline from the cache); 1 the card cannot \
            be a QR code or the file cannot be written; 3 log in first; 4 no such card; 6 server \
            unreachable and the card not cached; 64 usage error.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(help: ArgumentHelp("The card's id, as `list` shows it.", valueName: "id"))
    var id: String

    /// `--png`.
    @Option(help: ArgumentHelp("Write the code as a PNG file (8 pixels a module) instead.", valueName: "file"))
    var png: String?

    /// `--invert`.
    @Flag(help: "Full block = dark module, for terminals with a light background.")
    var invert = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            let answer = try await context.wallet().card(id: id, context.mode)
            CommandContext.sayOffline(answer.offlineAsOf)
            let card = answer.value
            guard let text = QRMaker.text(for: card) else {
                throw CommandFailure("The card's name, email and phone are too long for a QR code.")
            }
            let code: QRCode
            do throws(QRCode.EncodeError) {
                code = try QRCode(text: text)
            } catch {
                throw CommandFailure("The card cannot be a QR code: \(error.description)")
            }
            guard let png else {
                Console.out(code.halfBlockText(inverted: invert))
                return
            }
            let path = (png as NSString).expandingTildeInPath
            do {
                try Data(try code.png()).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure("\(TerminalText.escaped(path)) cannot be written: \(error.localizedDescription)")
            }
            Console.out(
                "Wrote the QR code of \(TerminalText.escaped(card.fields.name)) to \(TerminalText.escaped(path))\n")
        }
    }
}
