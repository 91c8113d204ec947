import AsyncHTTPClient
import CardBackend
import CardCache
import CardModels
import CardWalletLive
import Foundation
import NIOCore
import NIOHTTP1
import Networking

/// #28 (issue 28's performance part): the CardDAV backend's sync against a real Radicale book,
/// side by side in one run with the floor (the same requests, bytes only) and vdirsyncer.
///
/// - First sync into an empty cache: ≤ 1.15 × the floor, and ahead of `vdirsyncer sync` into an
///   empty vdir.
/// - Nothing changed: one request, ≥ 10× faster than vdirsyncer's second sync; one card changed
///   on the server: ≤ 2 requests.
/// - Memory flat: the peak of a first sync of 4 × the cards ≤ 1.3 × the peak at 1 ×.
struct CardDAVSyncFigure: Figure {
    static let floorTarget = 1.15
    static let unchangedTarget = 10.0
    static let flatTarget = 1.3
    static let seed: UInt64 = 28

    /// What one round of each side measured.
    struct Samples {
        var ours: [Double] = []
        var oursRequests: [Double] = []
        var oursIndexing: [Double] = []
        var oursUnchanged: [Double] = []
        var oursUnchangedRequests: [Double] = []
        var floor: [Double] = []
        var floorBytes: [Double] = []
        var floorUnchanged: [Double] = []
        var backendAlone: [Double] = []
        var vdirsyncer: [Double] = []
        var vdirsyncerUnchanged: [Double] = []
    }

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cards = context.carddavCards ?? context.pick(full: 5_000, quick: 100)
        let rounds = context.pick(full: 3, quick: 1)
        let folder = try TemporaryFolder("carddav")
        defer { folder.remove() }
        guard let python = Vobject.python() else {
            throw BenchError("#28 needs python3 (with Radicale and vdirsyncer)")
        }

        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.floorConfiguration())
        do {
            let tables = try await measure(
                context, cards: cards, rounds: rounds, folder: folder, python: python, client: client)
            try await client.shutdown()
            return tables
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The figure, with the floor's client.
    private func measure(
        _ context: BenchContext, cards: Int, rounds: Int, folder: TemporaryFolder, python: String, client: HTTPClient
    ) async throws -> [ResultTable] {
        context.progress("#28: writing \(Formatting.grouped(cards)) cards into a Radicale storage")
        let book = try RadicaleBook.fill(data: try folder.folder("radicale"), cards: cards, seed: Self.seed)
        let server = try RadicaleServer(data: book.data)
        var serverRunning = true
        defer { if serverRunning { server.stop() } }

        context.progress("#28: Radicale reads its new book once (its item cache)")
        try await Self.warm(server, client: client)

        context.progress("#28: vdirsyncer discover (once)")
        let vdirsyncer = try VdirsyncerSide(
            bookURL: server.bookURL, python: python, folder: try folder.folder("vdirsyncer"))
        let startup = try vdirsyncer.startup()

        var samples = Samples()
        var changeResult: (seconds: Double, requests: Int, title: Bool)?
        try await LiveTransport.withTransport(configuration: OursSide.transportConfiguration()) { transport in
            let ours = OursSide(root: server.root, transport: transport, recorder: RequestRecorder(), expected: cards)
            // A warm-up of ours, whose requests the floor sends again in every round.
            context.progress("#28: warm-up (our first sync, recorded for the floor)")
            let warm = try await ours.wallet(in: try folder.folder("warm"))
            _ = try await ours.sync(warm)
            let floor = FloorSide(client: client, requests: ours.recorder.requests)
            _ = try await ours.sync(warm)
            let floorUnchanged = FloorSide(client: client, requests: ours.recorder.requests)
            warm.cache?.close()
            _ = try await floor.run()
            _ = try await Self.listingAlone(warm, cards: cards)

            var last: CachedWallet?
            for round in 0..<rounds {
                context.progress("#28: round \(round + 1) of \(rounds)")
                for side in Sampler.order(count: 4, round: round) {
                    switch side {
                    case 0:
                        last?.cache?.close()
                        let wallet = try await ours.wallet(in: try folder.folder("ours-\(round)"))
                        let first = try await ours.sync(wallet)
                        let again = try await ours.sync(wallet)
                        // The search index the first sync left for later, filled as the next
                        // search (or the interface's background) does: timed on its own.
                        let indexing = try Self.indexBacklog(wallet, cards: cards)
                        samples.oursIndexing.append(indexing)
                        samples.ours.append(first.seconds)
                        samples.oursRequests.append(Double(first.requests))
                        samples.oursUnchanged.append(again.seconds)
                        samples.oursUnchangedRequests.append(Double(again.requests))
                        last = wallet
                    case 1:
                        let result = try await floor.run()
                        samples.floor.append(result.seconds)
                        samples.floorBytes.append(Double(result.bytes))
                        samples.floorUnchanged.append(try await floorUnchanged.run().seconds)
                    case 2:
                        samples.backendAlone.append(try await Self.listingAlone(warm, cards: cards))
                    default:
                        try vdirsyncer.reset()
                        samples.vdirsyncer.append(try vdirsyncer.run("sync"))
                        let files = vdirsyncer.files()
                        guard files == cards else { throw BenchError("vdirsyncer wrote \(files) cards of \(cards)") }
                        samples.vdirsyncerUnchanged.append(try vdirsyncer.run("sync"))
                    }
                }
            }

            // One card changed on the server, as another client would leave it.
            context.progress("#28: one card changed on the server")
            guard let wallet = last else { return }
            let changed = 7 % cards
            try Data(RadicaleBook.vcard(changed, seed: Self.seed, edition: 1).utf8).write(
                to: URL(fileURLWithPath: book.folder + "/" + RadicaleBook.name(changed) + ".vcf"))
            let result = try await ours.sync(wallet)
            let summary = try await wallet.list(.offline).value.first { $0.id == RadicaleBook.name(changed) + ".vcf" }
            changeResult = (result.seconds, result.requests, summary?.title?.hasSuffix("(1)") == true)
            wallet.cache?.close()
        }
        guard let change = changeResult else { throw BenchError("#28 measured no round") }
        guard change.title else { throw BenchError("the changed card's new title did not reach the cache") }

        // Memory: a fresh child process's first sync, at 1× and at 4× the cards.
        context.progress("#28: memory probe at \(Formatting.grouped(cards)) cards")
        let small = try Self.probe(root: server.root, folder: try folder.folder("probe-1"), cards: cards, context)
        server.stop()
        serverRunning = false
        let bigCards = cards * 4
        context.progress("#28: writing \(Formatting.grouped(bigCards)) cards for the memory probe")
        let bigBook = try RadicaleBook.fill(data: try folder.folder("radicale-4x"), cards: bigCards, seed: Self.seed)
        let bigServer = try RadicaleServer(data: bigBook.data)
        defer { bigServer.stop() }
        context.progress("#28: Radicale reads the 4× book once")
        try await Self.warm(bigServer, client: client)
        context.progress("#28: memory probe at \(Formatting.grouped(bigCards)) cards")
        let big = try Self.probe(root: bigServer.root, folder: try folder.folder("probe-4"), cards: bigCards, context)

        return Self.tables(
            context: context, book: book, rounds: rounds, samples: samples, startup: startup, change: change,
            memory: [(cards, small), (bigCards, big)])
    }

    // MARK: Pieces

    /// Indexes for search the cards a first sync stored without indexing them (what the first
    /// search after it does first), in seconds; checks it indexed every card.
    static func indexBacklog(_ wallet: CachedWallet, cards: Int) throws -> Double {
        guard let cache = wallet.cache else { throw BenchError("the wallet has no cache") }
        let clock = ContinuousClock()
        let start = clock.now
        var indexed = 0
        try cache.indexBacklog { indexed = $0 }
        let elapsed = seconds(from: start, to: clock.now)
        guard indexed == cards else { throw BenchError("the first search indexed \(indexed) cards of \(cards)") }
        return elapsed
    }

    /// The backend's listing alone, no cache (`CardDAVBackend.listing(.whole(since: nil))`: the
    /// same requests, every card parsed and mapped, nothing stored), in seconds.
    static func listingAlone(_ wallet: CachedWallet, cards: Int) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let listing = try await wallet.backend.listing(.whole(since: nil))
        let elapsed = seconds(from: start, to: clock.now)
        guard case .whole(let summaries, let whole, _) = listing, summaries.count == cards, whole.count == cards else {
            throw BenchError("the backend's listing alone did not give \(cards) whole cards")
        }
        return elapsed
    }

    /// AsyncHTTPClient as the transport sets it up (no decompression, no redirects).
    static func floorConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(600))
        return configuration
    }

    /// A `PROPFIND Depth: 1` of every ETag, untimed: Radicale parses each new file once and
    /// keeps it in its item cache, which every later request (ours, the floor's, vdirsyncer's)
    /// then finds warm.
    static func warm(_ server: RadicaleServer, client: HTTPClient) async throws {
        var request = HTTPClientRequest(url: server.bookURL.absoluteString)
        request.method = .RAW(value: "PROPFIND")
        let token = Data("\(RadicaleBook.user):\(RadicaleBook.password)".utf8).base64EncodedString()
        request.headers.add(name: "Authorization", value: "Basic \(token)")
        request.headers.add(name: "Depth", value: "1")
        request.headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        request.body = .bytes(
            ByteBuffer(
                string:
                    #"<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>"#
            ))
        let response = try await client.execute(request, timeout: .seconds(900))
        _ = try await response.body.collect(upTo: 256 << 20)
        guard response.status.code == 207 else {
            throw BenchError("Radicale answered the warm-up PROPFIND with \(response.status.code)")
        }
    }

    static func probe(root: URL, folder: String, cards: Int, _ context: BenchContext) throws -> CardDAVProbeResult {
        let (status, output) = try Spawn.captured(
            context.benchExecutable,
            ["carddav-probe", "--server", root.absoluteString, "--folder", folder, "--cards", String(cards)])
        guard status == 0, let line = output.split(separator: "\n").last,
            let result = try? JSONDecoder().decode(CardDAVProbeResult.self, from: Data(line.utf8))
        else {
            let said = output.split(separator: "\n").last.map(String.init) ?? ""
            throw BenchError("the CardDAV probe at \(cards) cards exited with status \(status): \(said.prefix(400))")
        }
        return result
    }

    // MARK: Tables

    static func tables(
        context: BenchContext, book: RadicaleBook, rounds: Int, samples: Samples, startup: Double,
        change: (seconds: Double, requests: Int, title: Bool), memory: [(Int, CardDAVProbeResult)]
    ) -> [ResultTable] {
        let full = !context.quick
        let size = "\(Formatting.grouped(book.cards)) cards"
        func judged(_ target: Target) -> [Target] { full ? [target] : [] }
        let withIndexing = zip(samples.ours, samples.oursIndexing).map(+)

        var first = ResultTable(
            title: "#28 CardDAV — first sync into an empty cache, Radicale, ours vs the floor and vdirsyncer",
            ratioHeader: "ours ÷ floor; vdirsyncer ÷ ours")
        first.rows = [
            ResultRow(
                label: "ours: CachedWallet listing via CardDAVBackend, stored in SQLite", size: size,
                summary: Summary(samples.ours), quantity: .time,
                ratio: Summary.pairedRatios(samples.ours, samples.floor),
                targets: judged(.ratio(.atMost(floorTarget), "≤ 1.15 × floor"))),
            ResultRow(
                label: "floor: the same requests, AsyncHTTPClient, bytes read", size: size,
                summary: Summary(samples.floor), quantity: .time),
            ResultRow(
                label: "ours: the first search's indexing of those cards, once, after the sync", size: size,
                summary: Summary(samples.oursIndexing), quantity: .time),
            ResultRow(
                label: "ours: first sync + that indexing, end to end", size: size,
                summary: Summary(withIndexing), quantity: .time,
                ratio: Summary.pairedRatios(withIndexing, samples.floor)),
            ResultRow(
                label: "CardDAVBackend.listing alone (parsed and mapped, no cache)", size: size,
                summary: Summary(samples.backendAlone), quantity: .time,
                ratio: Summary.pairedRatios(samples.backendAlone, samples.floor)),
            ResultRow(
                label: "vdirsyncer sync into an empty vdir (a fresh python3)", size: size,
                summary: Summary(samples.vdirsyncer), quantity: .time,
                ratio: Summary.pairedRatios(samples.vdirsyncer, samples.ours),
                targets: judged(.ratio(.atLeast(1), "ours ahead (> 1)"))),
            ResultRow(
                label: "requests, our first sync", size: size, summary: Summary(samples.oursRequests),
                quantity: .count),
            ResultRow(
                label: "bytes the floor read (every answer)", size: size, summary: Summary(samples.floorBytes),
                quantity: .bytes),
        ]
        first.notes = [
            "The book: \(size) written straight into Radicale's storage (multifilesystem, `collection-root/alice/contacts/*.vcf`), seeded; \(Formatting.grouped(book.photos)) carry a 15,000-byte JPEG PHOTO (base64, folded); \(Formatting.format(Double(book.bytes), as: .bytes)) of vCards. Radicale \(radicaleVersion() ?? "?") by scripts/carddav-server.py (wsgiref, HTTP/1.0: a connection per request), warmed by one untimed PROPFIND of every ETag.",
            "Ours: the app's transport but waiting up to 600 s for an answer's next bytes (under load Radicale needed more than the app's 30 s to answer a login's discovery); a fresh TokenStore login (untimed) and an empty cache each round, then `CachedWallet.list(.online)` timed: one `sync-collection` REPORT, `addressbook-multiget` in batches of 100 (fetched, parsed and stored at once, one batch apart), every card mapped and stored whole; its search index is filled afterwards, before the first search (timed on its own, and end to end with the sync). Floor: the very requests our warm-up sent (bodies, headers, the Basic credential), in the same order, by AsyncHTTPClient, each answer collected, nothing parsed.",
            "vdirsyncer \(vdirsyncerVersion() ?? "0.19"): `python3 -m vdirsyncer sync`, a fresh status folder and an empty vdir each round (`discover` ran once beforehand; its status copied in), timed to its exit — its python start-up alone (`--version`) takes \(Formatting.format(startup, as: .time)).",
            "\(rounds) round\(rounds == 1 ? "" : "s") after one warm-up of ours and of the floor, the four sides (ours, floor, backend alone, vdirsyncer) in alternating order; a ratio is the median of the per-round ratios. The backend-alone row (ratio ÷ floor) uses the warm-up's logged-in backend: it splits our time into the requests, the parsing and mapping, and the cache.",
        ]

        var unchanged = ResultTable(
            title: "#28 CardDAV — sync with nothing changed, and one card changed",
            ratioHeader: "vdirsyncer ÷ ours")
        unchanged.rows = [
            ResultRow(
                label: "ours: sync, nothing changed (same wallet, right after)", size: size,
                summary: Summary(samples.oursUnchanged), quantity: .time,
                ratio: Summary.pairedRatios(samples.vdirsyncerUnchanged, samples.oursUnchanged),
                targets: judged(.ratio(.atLeast(unchangedTarget), "≥ 10× vdirsyncer"))),
            ResultRow(
                label: "vdirsyncer: second sync, nothing changed", size: size,
                summary: Summary(samples.vdirsyncerUnchanged), quantity: .time),
            ResultRow(
                label: "floor: our one request (sync-collection with the token), bytes read", size: size,
                summary: Summary(samples.floorUnchanged), quantity: .time,
                ratio: Summary.pairedRatios(samples.vdirsyncerUnchanged, samples.floorUnchanged)),
            ResultRow(
                label: "requests, ours, nothing changed", size: size, summary: Summary(samples.oursUnchangedRequests),
                quantity: .count, targets: judged(.everySample(.atMost(1), "1 request"))),
            ResultRow(
                label: "requests, ours, one card changed on the server", size: size,
                summary: Summary(single: Double(change.requests)), quantity: .count,
                targets: judged(.everySample(.atMost(2), "≤ 2 requests"))),
            ResultRow(
                label: "ours: sync, one card changed", size: size, summary: Summary(single: change.seconds),
                quantity: .time),
        ]
        unchanged.notes = [
            "Ours is timed in process (the app's listing, cache included); vdirsyncer's second sync in a fresh python3, as a person runs it: its start-up is part of it. The floor row sends our unchanged sync's one request again (the warm-up's token; Radicale answers it with no changes), in the floor's turn of each round: its ratio is the most any client sending that request could reach.",
            "One changed card: its .vcf rewritten in Radicale's storage (a new TITLE) after the last round; the last round's wallet syncs from its token; the cache then holds the new title (checked).",
        ]

        var peak = ResultTable(
            title: "#28 CardDAV — peak memory of a first sync (fresh child process)",
            ratioHeader: "÷ \(Formatting.grouped(memory[0].0)) cards")
        peak.rows = memory.enumerated().map { position, pair in
            ResultRow(
                label: "VmHWM, login + first sync into an empty cache", size: "\(Formatting.grouped(pair.0)) cards",
                summary: Summary(single: Double(pair.1.peakResidentBytes)), quantity: .bytes,
                ratio: position == 0
                    ? nil
                    : Summary(
                        single: Double(pair.1.peakResidentBytes) / Double(memory[0].1.peakResidentBytes)),
                targets: position == 1 ? judged(.ratio(.atMost(flatTarget), "flat (≤ 1.3)")) : [])
        }
        peak.notes = [
            "`cardwallet-bench carddav-probe`: login, an empty cache, one `CachedWallet.list(.online)`, then VmHWM; VmRSS before the sync \(Formatting.format(Double(memory[0].1.baselineBytes), as: .bytes)). The probes' syncs took "
                + memory.map { "\(Formatting.format($0.1.seconds, as: .time)) (\($0.1.requests) requests)" }.joined(
                    separator: " and ") + ".",
            "The 4× book is a second Radicale storage (the same generator, seed and photo share), warmed like the first.",
        ]
        return [first, unchanged, peak]
    }

    static func radicaleVersion() -> String? {
        version(["-c", "import radicale; print(radicale.VERSION)"])
    }

    static func vdirsyncerVersion() -> String? {
        version(["-c", "import vdirsyncer; print(vdirsyncer.__version__)"])
    }

    private static func version(_ arguments: [String]) -> String? {
        guard let python = Vobject.python(), let result = try? Spawn.captured(python, arguments), result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
