import CardImages
import CardModels
import CardWalletLive
import CardWalletUI

/// Issue 16: the TUI's detail view, from Enter on a card to the frame with its picture, for
/// each protocol, with the bytes the picture costs on the terminal.
///
/// One run: a logged-in state on a card with an image; Enter; the card arrives; the settle asks
/// for the picture at the layout's box; ``CardWalletLive/PictureMaker/render(_:box:key:)`` makes
/// it from the image bytes (in memory, as after the first fetch: the network is the mock
/// server's figure); the picture arrives; the frame is rendered. The curses write is not timed
/// (the terminal-bytes figure measures frames); the bytes are the picture's own.
enum DetailPictureTable {
    /// The terminal the detail view runs in: 120×40, so the picture box is 47×37 cells.
    static let width = 120
    static let height = 40

    static func make(file: [UInt8], fixtureName: String, sampler: Sampler, variants: [ImagesFigure.Variant]) throws
        -> ResultTable
    {
        var table = ResultTable(
            title:
                "Images (issue 16) — the TUI's detail view: Enter on a card to the frame with its picture, \(width)×\(height) terminal",
            ratioHeader: "÷ half blocks 24-bit")
        let makers = variants.map { PictureMaker(graphics: $0.graphics) }
        var bytes = Array(repeating: 0, count: variants.count)
        // Each run checks that the frame holds the picture: a run that drew nothing would be fast.
        let runs = makers.enumerated().map { index, maker in
            { () throws -> Void in bytes[index] = try open(file: file, maker: maker) }
        }
        for run in runs { try run() }
        let samples = try sampler.roundRobin(timing: runs)
        let blocks = variants.firstIndex { $0.label == "half blocks, 24-bit" } ?? 0
        let size = "\(fixtureName), \(ByteCount.text(file.count))"
        for (index, variant) in variants.enumerated() {
            table.rows.append(
                ResultRow(
                    label: variant.label, size: size, summary: Summary(samples[index]), quantity: .time,
                    ratio: Summary.pairedRatios(samples[index], samples[blocks])))
            table.rows.append(
                ResultRow(
                    label: "  bytes of the picture", size: size, summary: Summary(single: Double(bytes[index])),
                    quantity: .count))
        }
        table.notes = [
            "Each row: AppState.reduce(Enter) → the card → the settle's cardPicture call → PictureMaker.render (decode at the smallest JPEG scale that fits, scale, encode) → the picture into the state → Renderer.render. Image bytes in memory (cached after the first fetch by the card's version); no network, no curses write.",
            "Bytes: kitty counts its transmission (once per picture) plus the placeholder cells' characters; iTerm2 and sixel their escapes (written again when a row under the picture is repainted); half blocks the cells' characters (colours not counted).",
        ]
        return table
    }

    /// One opening; the picture's byte count.
    static func open(file: [UInt8], maker: PictureMaker) throws -> Int {
        let server = "http://127.0.0.1:1/v1"
        let email = "p@example.com"
        let summary = CardSummary(
            id: "card-1", name: "Pictured", title: nil, company: nil, email: email, defaultImage: 0, hasImage: true,
            updatedAt: SampleCards.epoch)
        var state = AppState(
            server: server, email: email, password: "secret", width: width, height: height, pictures: maker.support)
        // Log in and load the one-card list, as the runner would.
        for case .perform(let id, _) in state.reduce(.key(.enter)) {
            _ = state.reduce(.session(.loggedIn(email: email, server: server)))
            for case .perform(let listID, .loadCards) in state.reduce(
                .completed(id, .success(.loggedIn(email: email, server: server))))
            {
                _ = state.reduce(
                    .completed(listID, .success(.cards(CardPage(cards: [summary], total: 1, offset: 0, limit: 50)))))
            }
        }
        var effects = state.reduce(.key(.enter))
        var picture: TerminalPicture?
        // Answer the calls until the picture is in: the card, then the picture the settle asks for.
        for _ in 0..<4 {
            var next: [Effect] = []
            for case .perform(let id, let call) in effects {
                switch call {
                case .loadCard:
                    next += state.reduce(.completed(id, .success(.card(SampleCards.card(summary)))))
                case .cardPicture(_, _, let box):
                    let made = try maker.render(file, box: box, key: "card-1")
                    picture = made
                    next += state.reduce(.completed(id, .success(.picture(made))))
                default:
                    continue
                }
            }
            effects = next
            if picture != nil { break }
        }
        guard let picture, state.detail?.picture.picture == picture else {
            throw BenchError("images: the detail view never got its picture")
        }
        blackHole(Renderer.render(state))
        return picture.byteCount
    }
}
