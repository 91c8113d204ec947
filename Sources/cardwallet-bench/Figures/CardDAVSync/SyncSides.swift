import AsyncHTTPClient
import CardBackend
import CardCache
import CardDAV
import CardWalletLive
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Networking
import Synchronization
import TokenStore

/// One request as the provider handed it to the transport: what the floor sends again.
struct RecordedRequest: Sendable {
    var method: String
    var url: URL
    var headers: [(name: String, value: String)]
    var body: Data
}

/// Counts the requests the provider sends (every attempt) and keeps them, for the floor.
final class RequestRecorder: Plugin {
    private let state = Mutex<[RecordedRequest]>([])

    /// How many requests were sent since the last ``reset()``.
    var count: Int { state.withLock { $0.count } }

    /// The requests sent since the last ``reset()``.
    var requests: [RecordedRequest] { state.withLock { $0 } }

    func reset() { state.withLock { $0.removeAll() } }

    func willSend(_ request: Request, target: any TargetType) {
        let recorded = RecordedRequest(
            method: request.method.rawValue, url: request.url, headers: request.headers.fields,
            body: request.body.data ?? Data())
        state.withLock { $0.append(recorded) }
    }
}

/// Our side: the wallet as the app has it — `CardDAVBackend` (with a logger plugin, as the app's)
/// under `CachedWallet`, whose listing stores every card into the SQLite cache.
struct OursSide: Sendable {
    let root: URL
    let transport: LiveTransport
    let recorder: RequestRecorder
    let expected: Int

    /// The app's transport with longer waits (600 s for an answer's next bytes instead of 30 s):
    /// on a busy machine Radicale (started by the niced bench) took more than 30 s to answer a
    /// login's discovery — it computes every book's sync token — and failed whole runs. Only
    /// failures change: every timed request here is answered in seconds.
    static func transportConfiguration() -> LiveTransport.Configuration {
        var configuration = LiveTransport.Configuration()
        configuration.readTimeout = .seconds(600)
        configuration.requestTimeout = .seconds(900)
        return configuration
    }

    /// A logger plugin configured as the scripting commands' (LiveBackends.loggerConfiguration,
    /// with no ring of recent events: ClientCommandRunner keeps none).
    static func logPlugin() -> LoggerPlugin {
        LoggerPlugin(
            configuration: LoggerPlugin.Configuration(recentCapacity: 0, tagExtractor: .jsonField("errorCode")))
    }

    /// A logged-in wallet with an empty cache in `folder` (the login's discovery is not timed).
    func wallet(in folder: String) async throws -> CachedWallet {
        let store = TokenStore(path: folder + "/state/tokens.json")
        let backend = CardDAVBackend(
            setup: CardDAVBackend.Setup(server: root), tokenStore: store, transport: transport,
            plugins: [Self.logPlugin(), recorder])
        _ = try await backend.logIn(account: RadicaleBook.user, password: RadicaleBook.password)
        let wallet = await CachedWallet.open(
            backend: backend, location: CacheLocation(folder: folder + "/cache"),
            logger: Logger(label: "bench.carddav", factory: { _ in SwiftLogNoOpLogHandler() }))
        guard wallet.cache != nil else { throw BenchError("the CardDAV wallet opened no cache in \(folder)") }
        recorder.reset()
        return wallet
    }

    /// Times one listing of `wallet` (a sync), checking it lists `expected` cards; returns the
    /// seconds and the requests it sent.
    func sync(_ wallet: CachedWallet, expected: Int? = nil) async throws -> (seconds: Double, requests: Int) {
        recorder.reset()
        let clock = ContinuousClock()
        let start = clock.now
        let cards = try await wallet.list(.online).value
        let elapsed = seconds(from: start, to: clock.now)
        let want = expected ?? self.expected
        guard cards.count == want else { throw BenchError("our sync listed \(cards.count) cards of \(want)") }
        return (elapsed, recorder.count)
    }
}

/// The floor: the very requests our first sync sent (the `sync-collection` REPORT and the
/// multigets, same bodies and headers), sent one after another by AsyncHTTPClient alone,
/// each answer's bytes read and counted, nothing parsed.
struct FloorSide: Sendable {
    let client: HTTPClient
    let requests: [RecordedRequest]

    /// Sends every request; returns the seconds and the bytes read.
    func run() async throws -> (seconds: Double, bytes: Int) {
        let clock = ContinuousClock()
        let start = clock.now
        var bytes = 0
        for recorded in requests {
            var request = HTTPClientRequest(url: recorded.url.absoluteString)
            request.method = NIOHTTP1.HTTPMethod(rawValue: recorded.method)
            for (name, value) in recorded.headers
            where name.lowercased() != "host" && name.lowercased() != "content-length" {
                request.headers.add(name: name, value: value)
            }
            if !recorded.body.isEmpty { request.body = .bytes(ByteBuffer(bytes: recorded.body)) }
            let response = try await client.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: 64 << 20)
            guard response.status.code == 207 || response.status.code == 200 else {
                throw BenchError("the floor's \(recorded.method) \(recorded.url.path) got \(response.status.code)")
            }
            bytes += body.readableBytes
        }
        return (seconds(from: start, to: clock.now), bytes)
    }
}

/// vdirsyncer 0.19 syncing the book into a vdir (a folder of `.vcf` files), in a fresh python
/// each time, as a person runs it.
///
/// One config, status folder and vdir for every round: vdirsyncer keeps a hash of the pair's
/// configuration beside its discovery and refuses to sync when it changed, so a round starts by
/// emptying the status folder and the vdir and putting back what `discover` saved, once.
struct VdirsyncerSide: Sendable {
    let python: String
    let config: String
    let status: String
    let vdir: String
    let discovered: String

    /// Writes the pair's config in `folder` and runs `vdirsyncer discover` once.
    ///
    /// - Throws: ``BenchError`` when vdirsyncer fails or a file cannot be written.
    init(bookURL: URL, python: String, folder: String) throws {
        self.python = python
        config = folder + "/vdirsyncer.conf"
        status = folder + "/status"
        vdir = folder + "/vdir"
        discovered = folder + "/discovered"
        let text = """
            [general]
            status_path = "\(status)/"

            [pair wallet]
            a = "local"
            b = "remote"
            collections = null
            conflict_resolution = null

            [storage local]
            type = "filesystem"
            path = "\(vdir)/"
            fileext = ".vcf"

            [storage remote]
            type = "carddav"
            url = "\(bookURL.absoluteString)"
            username = "\(RadicaleBook.user)"
            password = "\(RadicaleBook.password)"

            """
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: config))
            for path in [status, vdir] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
        } catch {
            throw BenchError("cannot write vdirsyncer's config in \(folder): \(error.localizedDescription)")
        }
        _ = try run("discover")
        do {
            try FileManager.default.copyItem(atPath: status, toPath: discovered)
        } catch {
            throw BenchError("cannot keep vdirsyncer's discovery: \(error.localizedDescription)")
        }
    }

    /// An empty vdir and a status folder holding only the discovery: a first sync's start.
    func reset() throws {
        do {
            for path in [status, vdir] where FileManager.default.fileExists(atPath: path) {
                try FileManager.default.removeItem(atPath: path)
            }
            try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: discovered, toPath: status)
        } catch {
            throw BenchError("cannot empty vdirsyncer's vdir and status: \(error.localizedDescription)")
        }
    }

    /// Runs `vdirsyncer -c config <command>` and times it to its exit.
    func run(_ command: String) throws -> Double {
        let outcome = try Spawn.timed(python, ["-m", "vdirsyncer", "-c", config, command])
        guard outcome.status == 0 else {
            throw BenchError("python3 -m vdirsyncer -c \(config) \(command) exited with \(outcome.status)")
        }
        return outcome.seconds
    }

    /// The `.vcf` files in the vdir.
    func files() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).filter { $0.hasSuffix(".vcf") }.count
    }

    /// The start-up alone: `python3 -m vdirsyncer --version`.
    func startup() throws -> Double {
        let outcome = try Spawn.timed(python, ["-m", "vdirsyncer", "--version"])
        guard outcome.status == 0 else {
            throw BenchError("python3 -m vdirsyncer --version exited with \(outcome.status): is vdirsyncer installed?")
        }
        return outcome.seconds
    }
}
