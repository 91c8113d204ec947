import ArgumentParser
import CardBackend
import CardModels
import CardVCard
import CardWalletLive
import Foundation
import Synchronization

/// `cardwallet export [ID…]`: cards out as vCard, CSV or JSON, to standard output, a file or a vdir.
struct ExportCommand: AsyncParsableCommand {
    /// The formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case vcard3, vcard4, csv, json
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export cards as vCard 3.0 or 4.0, Google Contacts CSV or JSON.",
        discussion: """
            Writes every card of the wallet in wallet order, or the cards given by id, to standard \
            output (or --output FILE, replaced atomically). vCards have CRLF line ends, lines folded \
            at 75 octets, the card's picture (PHOTO;ENCODING=b in 3.0, a data: URI in 4.0), a UID \
            (the one kept from its import, else one derived from the card id), REV from the last \
            change, and everything kept from an import, in its place. --format csv writes the \
            columns Google Contacts imports; json the API's JSON (without pictures).

            --vdir DIR writes one UID.vcf per card, as khard and vdirsyncer read them: a file whose \
            card did not change is left alone (same bytes, same modification time), others are \
            replaced atomically, and a file of a card that no longer exists is removed when \
            CardWallet wrote it (when exporting the whole wallet); nothing else in DIR is touched.

            --book all exports every card of every address book of every stored account, book after book.

            Examples:
              cardwallet export > contacts.vcf
              cardwallet export --book all --output everything.vcf
              cardwallet export card_3kVq --format vcard4
              cardwallet export --vdir ~/.local/share/contacts/cardwallet && khard list
              cardwallet export --format csv --output google.csv

            Records the cards and pictures in the local card cache; when the server cannot be \
            reached (or with --offline) exports from the cache and says `offline — cards as of \
            <time>` on standard error. Offline, every card must be cached in full (read once \
            online, by `show`, `export` or `list --query`); a picture not cached is left out, \
            and that is said.

            Exit status: 0 exported (also offline from the cache); 3 log in first; 4 no such \
            card; 6 server unreachable and the cards not cached; 64 bad options; 1 the file or \
            folder cannot be written.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The ids.
    @Argument(help: ArgumentHelp("Cards to export (default: the whole wallet).", valueName: "id"))
    var ids: [String] = []

    /// `--format`.
    @Option(help: ArgumentHelp("vcard3, vcard4, csv or json.", valueName: "format"))
    var format: Format = .vcard3

    /// `--output`.
    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// `--vdir`.
    @Option(name: .long, help: ArgumentHelp("Write one UID.vcf per card into this folder (a vdir).", valueName: "dir"))
    var vdir: String?

    func validate() throws {
        if output != nil, vdir != nil { throw ValidationError("--output and --vdir cannot be used together.") }
        if vdir != nil, format == .csv || format == .json {
            throw ValidationError("--vdir writes vCards: use --format vcard3 or vcard4 with it.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, allowsAllBooks: true) { context in
            if context.allBooks, !ids.isEmpty {
                throw CommandFailure.usage("--book all exports every card of every book: give no ids with it.")
            }
            let fetching = Progress("fetching cards")
            var parts: [Part] = []
            var offlineAsOf: Date?
            let wallets =
                context.allBooks
                ? try await context.shelf.books().asyncMap { try await context.shelf.wallet(for: $0) }
                : [await context.wallet()]
            var fetched = 0
            for wallet in wallets {
                let done = fetched
                let answer = try await wallet.wholeCards(ids: ids.isEmpty ? nil : ids, context.mode) {
                    fetching.update(done + $0, of: wallets.count > 1 ? nil : $1)
                }
                fetched += answer.value.count
                if let asOf = answer.offlineAsOf { offlineAsOf = min(offlineAsOf ?? asOf, asOf) }
                parts.append(
                    Part(cards: answer.value, photos: PhotoSource(wallet: wallet, offline: answer.offlineAsOf != nil)))
            }
            fetching.finish()
            CommandContext.sayOffline(offlineAsOf)
            defer { for part in parts { part.photos.sayNotCached() } }
            let count = parts.reduce(0) { $0 + $1.cards.count }
            if let vdir {
                try await writeVdir(parts, to: vdir)
                return
            }
            let bytes = try await render(parts)
            if let output {
                do {
                    try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw CommandFailure("cannot write \(TerminalText.escaped(output)): \(error.localizedDescription)")
                }
                Console.err(
                    "cardwallet: exported \(count) card\(count == 1 ? "" : "s") to \(TerminalText.escaped(output)).\n"
                )
            } else {
                Console.out(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// The cards of one book and where their pictures come from.
    struct Part {
        var cards: [Card]
        var photos: PhotoSource
    }

    private var writer: VCardWriter { VCardWriter(version: format == .vcard4 ? .v40 : .v30) }

    /// The whole export in the chosen format.
    private func render(_ parts: [Part]) async throws -> [UInt8] {
        // A CardDAV card with what its vCard keeps beyond the fields (its UID, a second email…).
        let cards = parts.flatMap(\.cards).map(\.withSourceLines)
        switch format {
        case .json:
            return Array(try CardText.json(cards).utf8)
        case .csv:
            return Array((GoogleCSV.headerLine + cards.map(GoogleCSV.row).joined()).utf8)
        case .vcard3, .vcard4:
            var out: [UInt8] = []
            let progress = Progress("writing cards")
            defer { progress.finish() }
            // Pictures are fetched a few at a time, in order, a batch at a time so memory stays
            // bounded by the batch.
            let writer = self.writer
            var written = 0
            for part in parts {
                for start in stride(from: 0, to: part.cards.count, by: 64) {
                    let batch = part.cards[start..<min(start + 64, part.cards.count)].map(\.withSourceLines)
                    let photos = try await part.photos.photos(of: batch)
                    for (card, photo) in zip(batch, photos) { writer.append(card, photo: photo, to: &out) }
                    written += batch.count
                    progress.update(written, of: cards.count)
                }
            }
            return out
        }
    }

    private func writeVdir(_ parts: [Part], to path: String) async throws {
        let progress = Progress("writing cards")
        defer { progress.finish() }
        let count = parts.reduce(0) { $0 + $1.cards.count }
        do {
            var vdir = try VdirWriter(directory: URL(fileURLWithPath: path))
            let writer = self.writer
            var written = 0
            for part in parts {
                for start in stride(from: 0, to: part.cards.count, by: 64) {
                    let batch = part.cards[start..<min(start + 64, part.cards.count)].map(\.withSourceLines)
                    let photos = try await part.photos.photos(of: batch)
                    for (card, photo) in zip(batch, photos) {
                        try vdir.write(
                            VdirWriter.Entry(
                                uid: VCardWriter.uid(of: card), cardID: card.id, bytes: writer.write(card, photo: photo)
                            ))
                    }
                    written += batch.count
                    progress.update(written, of: count)
                }
            }
            // Exporting some ids updates their files only: the others are not gone.
            let report = try vdir.finish(removeStale: ids.isEmpty)
            progress.finish()
            var parts = ["\(report.written.count) written", "\(report.unchanged.count) unchanged"]
            if !report.removed.isEmpty { parts.append("\(report.removed.count) removed") }
            if !report.foreign.isEmpty { parts.append("\(report.foreign.count) not ours left alone") }
            Console.err(
                "cardwallet: exported \(count) card\(count == 1 ? "" : "s") to \(TerminalText.escaped(path)) (\(parts.joined(separator: ", "))).\n"
            )
        } catch let failure as VdirWriter.Failure {
            throw CommandFailure(TerminalText.escaped(failure.description))
        }
    }
}

extension Array {
    /// The elements mapped one after the other by an asynchronous transform.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

/// The pictures of an export, through the cache; counts those left out because the cache lacks them.
final class PhotoSource: Sendable {
    let wallet: CachedWallet
    let offline: Bool
    private let notCached = Mutex(0)

    init(wallet: CachedWallet, offline: Bool) {
        self.wallet = wallet
        self.offline = offline
    }

    /// Pictures read at once: enough to hide latency, few enough to stay polite.
    static let concurrency = 8

    /// The photos of `cards`, in order, a few read at a time.
    func photos(of cards: [Card]) async throws -> [VCardPhoto?] {
        try await cards.concurrentMap(concurrency: Self.concurrency) { card in Optional(try await self.photo(of: card))
        }
    }

    /// The card's photo, or `nil` (none, not PNG or JPEG, or not cached offline): recorded in
    /// the cache online, from the cache when offline or the server cannot be reached.
    func photo(of card: Card) async throws -> VCardPhoto? {
        guard card.hasImage else { return nil }
        let image: CardImage
        do {
            image = try await wallet.image(of: card, offline: offline).value
        } catch is OfflineReadError {
            notCached.withLock { $0 += 1 }
            return nil
        }
        // An image the server holds that is not PNG or JPEG (it cannot, but the bytes decide) is left out.
        guard let format = CardImageFormat(sniffing: image.data) else { return nil }
        return VCardPhoto(bytes: [UInt8](image.data), format: format)
    }

    /// Says on standard error how many pictures were left out.
    func sayNotCached() {
        let count = notCached.withLock { $0 }
        guard count > 0 else { return }
        Console.err(
            "cardwallet: offline, \(count) picture\(count == 1 ? " is" : "s are") not cached and left out of the export.\n"
        )
    }
}
