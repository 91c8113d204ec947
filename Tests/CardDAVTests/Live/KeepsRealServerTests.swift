import CardBackend
import CardCache
import CardDAV
import CardModels
import CardVCard
import CardWalletLive
import Foundation
import Logging
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

/// CardDAV keeps what it is given (issue 41): a card's own UID survives an import, byte for byte;
/// the same files imported again change nothing and cost nothing but the sync; the wallet's own
/// writes are not read back.
@Suite(.serialized) struct KeepsRealServerTests {
    private static let logger = Logger(label: "test.carddav-keeps")

    /// Every request a provider sends, as `METHOD what`: the report's name for a REPORT.
    final class Requests: Plugin {
        private let sent = Mutex<[String]>([])
        var all: [String] { sent.withLock { $0 } }
        func willSend(_ request: Request, target: any TargetType) {
            let body = request.body.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let what =
                body.contains("addressbook-multiget")
                ? " multiget" : body.contains("sync-collection") ? " sync-collection" : ""
            sent.withLock { $0.append(request.method.rawValue + what) }
        }
    }

    /// A logged-in backend of `server` and its wallet with a cache in `folder`.
    private static func wallet(
        _ server: DAVServerProcess, _ transport: any Transport, _ folder: TemporaryFolder, plugins: [any Plugin]
    ) async throws -> CachedWallet {
        let backend = CardDAVBackend(
            setup: CardDAVBackend.Setup(server: server.root),
            tokenStore: TokenStore(path: folder.path("state/tokens.json")), transport: transport, plugins: plugins)
        _ = try await backend.logIn(account: server.user, password: server.password)
        let wallet = await CachedWallet.open(
            backend: backend, location: CacheLocation(folder: folder.path("cache")), logger: logger)
        try #require(wallet.cache != nil)
        return wallet
    }

    // MARK: Files

    /// A photo of the corpus, for a card that carries one.
    static let photo = try! Data(contentsOf: fixtures.appending(path: "photo-ada.jpg"))
    static let fixtures = DAVServerProcess.repository.appending(path: "Tests/CardVCardTests/Fixtures")

    /// The UIDs the made-up files carry, exactly as written.
    static let ownUIDs = [
        "my-phone-uid-42", "urn:uuid:0b7a6c2e-5c1f-4d6b-9a4e-3f2d1c0b9a88", "Work Phone/Ada #7", "h-looks-hashed",
    ]

    /// Made-up files: with and without UIDs (safe names and not), vCard 2.1 in Latin-1, 3.0, 4.0.
    static let madeUp: [(name: String, bytes: [UInt8])] = [
        (
            "own-uid-30.vcf",
            Array(
                ("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:my-phone-uid-42\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\n"
                    + "EMAIL;TYPE=work:grace@navy.example\r\nEMAIL;TYPE=home:grace@home.example\r\n"
                    + "TEL;TYPE=cell:+1 555 0100\r\nitem1.URL:https://grace.example\r\nitem1.X-ABLabel:site\r\n"
                    + "X-CUSTOM;X-PARAM=kept:value kept\r\nPHOTO;ENCODING=b;TYPE=JPEG:"
                    + photo.base64EncodedString() + "\r\nEND:VCARD\r\n").utf8)
        ),
        (
            "urn-uid-40.vcf",
            Array(
                ("BEGIN:VCARD\nVERSION:4.0\nUID:urn:uuid:0b7a6c2e-5c1f-4d6b-9a4e-3f2d1c0b9a88\nFN:Katherine Johnson\n"
                    + "EMAIL;PREF=1:kj@nasa.example\nORG:NASA;Flight Research\nEND:VCARD\n").utf8)
        ),
        (
            "odd-uid-30.vcf",
            Array(
                ("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:Work Phone/Ada #7\r\nFN:Ada Lovelace\r\n"
                    + "EMAIL:ada@example.com\r\nNOTE:Analytical\\, engine\r\nEND:VCARD\r\n"
                    + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:h-looks-hashed\r\nFN:Hedy Lamarr\r\n"
                    + "TEL:+1 555 0199\r\nEND:VCARD\r\n").utf8)
        ),
        (
            "latin1-21.vcf",
            Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=ISO-8859-1:M".utf8) + [0xFC] + Array("ller;Ren".utf8)
                + [0xE9] + Array(";;;\r\nFN;CHARSET=ISO-8859-1:Ren".utf8) + [0xE9] + Array(" M".utf8) + [0xFC]
                + Array("ller\r\nTEL;WORK;VOICE:+49 30 1234567\r\nORG;CHARSET=ISO-8859-1:B".utf8) + [0xE4]
                + Array("ckerei\r\nEND:VCARD\r\n".utf8)
        ),
        (
            "no-uid-40.vcf",
            Array(
                ("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Margaret Hamilton\r\nEMAIL:mh@mit.example\r\n"
                    + "TITLE:Director\r\nBDAY:19361217\r\nEND:VCARD\r\n").utf8)
        ),
    ]

    /// The cards of every made-up file and of the corpus of real exports (2.1 from Android and
    /// Outlook, 3.0 from Apple, Google, Evolution, Lotus Notes, a 4.0 with a photo).
    static func read(_ importer: VCardImporter) throws -> (cards: [SourcedCard], problems: [SourcedProblem]) {
        var files = madeUp
        let corpus = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".vcf") }.sorted()
        for name in corpus {
            files.append((name, [UInt8](try Data(contentsOf: fixtures.appending(path: name)))))
        }
        var cards: [SourcedCard] = []
        var problems: [SourcedProblem] = []
        for (name, bytes) in files {
            let document = VCardDocument.read(bytes: bytes, importer: importer)
            cards += document.cards.map { SourcedCard(file: name, card: $0) }
            problems += document.problems.map { SourcedProblem(file: name, problem: $0) }
        }
        return (cards, problems)
    }

    @Test(
        "a card's own UID survives an import, and the same files imported again are unchanged at the cost of the sync",
        arguments: DAVServerProcess.Kind.allCases)
    func reimport(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-keeps")
                defer { folder.remove() }
                let requests = Requests()
                let wallet = try await Self.wallet(server, transport, folder, plugins: [requests])
                let executor = ImportExecutor(wallet: wallet)
                let (cards, problems) = try Self.read(executor.importer)
                #expect(cards.count >= 20, "\(cards.count)")

                let first = try await executor.plan(cards, problems: problems)
                #expect(first.counts.updated == 0 && first.counts.unchanged == 0, "\(first.counts)")
                var outcomes: [String] = []
                let end = try await executor.run(first) { entry, outcome in
                    switch outcome {
                    case .skipped(_, let problem):
                        if case .create = entry.action { outcomes.append("\(entry.file):\(entry.line): \(problem)") }
                    case .stopped(let error): outcomes.append("\(entry.file):\(entry.line): stopped: \(error)")
                    default: break
                    }
                }
                guard case .finished = end else {
                    Issue.record("the import did not finish: \(end) \(outcomes)")
                    return
                }
                #expect(outcomes.isEmpty, "every card came in: \(outcomes)")

                // The server holds each card's own UID, byte for byte; a safe one names the card.
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                let stored = try await raw.multiget(try await raw.listETags(book).members.map(\.href), in: book)
                for uid in Self.ownUIDs {
                    let holders = stored.found.filter {
                        $0.vcard.contains("\nUID:\(uid)\r") || $0.vcard.contains("\nUID:\(uid)\n")
                    }
                    #expect(holders.count == 1, "UID:\(uid) on the server, once")
                    #expect(holders.allSatisfy { (try? VCardResource(text: $0.vcard).uid) == uid })
                }
                #expect(stored.found.contains { $0.href == server.bookPath + "my-phone-uid-42.vcf" })
                #expect(
                    !stored.found.contains { $0.href.hasSuffix("/h-looks-hashed.vcf") }, "h- is the hashed ids' prefix")
                let uids = stored.found.compactMap { try? VCardResource(text: $0.vcard).uid }
                #expect(uids.count == stored.found.count, "every card has a UID")
                #expect(Set(uids).count == uids.count, "each its own")

                // The same files again: nothing to do, and nothing read but the sync.
                let mark = requests.all.count
                let second = try await executor.plan(cards, problems: problems)
                let changed = second.entries.filter {
                    if case .unchanged = $0.action { return false }
                    if case .skip = $0.action { return false }
                    return true
                }
                #expect(
                    changed.isEmpty,
                    "\(changed.map { "\($0.file):\($0.line) \($0.name ?? "") \($0.action)" })")
                #expect(second.counts.created == 0 && second.counts.updated == 0, "\(second.counts)")
                #expect(second.counts.unchanged == first.counts.created + first.counts.unchanged)
                #expect(requests.all.dropFirst(mark) == ["REPORT sync-collection"], "\(requests.all.dropFirst(mark))")
                let run = requests.all.count
                _ = try await executor.run(second) { _, _ in }
                #expect(requests.all.count == run, "an unchanged card sends nothing")

                // An export keeps what the server keeps: each card's own UID, its second email,
                // its X- and grouped lines. The exported file imported again changes nothing.
                let whole = try await wallet.wholeCards(ids: nil, .offline).value.map(\.withSourceLines)
                let writer = VCardWriter(version: .v30)
                var exported: [UInt8] = []
                for card in whole {
                    let photo = card.source.flatMap { VCardDocument.read(bytes: Array($0.utf8)).cards.first?.photo }
                    writer.append(card, photo: photo, to: &exported)
                }
                let text = String(decoding: exported, as: UTF8.self)
                for uid in Self.ownUIDs { #expect(text.contains("\r\nUID:\(uid)\r\n"), "UID:\(uid) exported") }
                #expect(!text.contains("UID:" + WalletProperty.uidPrefix), "no UID derived from a card id")
                let kept = [
                    "EMAIL;TYPE=home:grace@home.example", "item1.X-ABLabel:site", "X-CUSTOM;X-PARAM=kept:value kept",
                ]
                for line in kept {
                    #expect(text.lowercased().contains(line.lowercased()), "\(line) exported")
                }
                let back = VCardDocument.read(bytes: exported, importer: executor.importer)
                #expect(back.cards.count == whole.count)
                #expect(back.problems.isEmpty, "\(back.problems)")
                let third = try await executor.plan(
                    back.cards.map { SourcedCard(file: "export.vcf", card: $0) }, problems: [])
                let differing = third.entries.filter {
                    if case .unchanged = $0.action { return false }
                    return true
                }
                #expect(differing.isEmpty, "\(differing.map { "\($0.name ?? "") \($0.action)" })")
            }
        }
    }

    @Test(
        "the wallet's own writes are not read back: an edit and a sync make one request",
        arguments: DAVServerProcess.Kind.allCases)
    func ownWrites(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-keeps")
                defer { folder.remove() }
                let requests = Requests()
                let wallet = try await Self.wallet(server, transport, folder, plugins: [requests])
                _ = try await wallet.list(.online)
                let made = try await wallet.create(CardFields(name: "Ada Lovelace", email: "ada@example.com")).value
                var mark = requests.all.count
                _ = try await wallet.list(.online)
                #expect(requests.all.dropFirst(mark) == ["REPORT sync-collection"], "a create is not read back")

                var fields = made.fields
                fields.title = "Countess"
                let edited = try await wallet.update(id: made.id, fields: fields, revision: made.revision).value
                #expect(requests.all.dropFirst(mark + 1) == ["PUT"], "the edit itself: one PUT")
                mark = requests.all.count
                let listed = try await wallet.list(.online).value
                #expect(requests.all.dropFirst(mark) == ["REPORT sync-collection"], "one request: the sync")
                #expect(listed.map(\.name) == ["Ada Lovelace"])
                #expect(try await wallet.card(id: made.id, .offline).value.fields.title == "Countess")

                // A sync by ETags (a token the server refuses) does not read it back either.
                try #require(wallet.cache).storeSyncToken("sync:http://radicale.org/ns/sync/not-a-token")
                mark = requests.all.count
                _ = try await wallet.list(.online)
                #expect(!requests.all.dropFirst(mark).contains("REPORT multiget"), "\(requests.all.dropFirst(mark))")
                #expect(try await wallet.card(id: made.id, .offline).value.revision == edited.revision)

                // A change made elsewhere is read, as before.
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                let current = try await raw.get(book.href + made.id)
                let renamed = try VCardResource(text: current.vcard).edited(
                    fields: CardFields(name: "Augusta Ada King"))
                _ = try await raw.update(current.href, vcard: renamed.text, etag: try #require(current.etag))
                mark = requests.all.count
                #expect(try await wallet.list(.online).value.map(\.name) == ["Augusta Ada King"])
                #expect(requests.all.dropFirst(mark) == ["REPORT sync-collection", "REPORT multiget"])
            }
        }
    }
}
