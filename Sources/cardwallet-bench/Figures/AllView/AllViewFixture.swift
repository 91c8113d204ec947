import CardMockServer
import Foundation
import Glibc

/// What #40's figure runs on: one in-process mock server with four users — three of `perBook`
/// cards each (the All view's three books) and one of three times as many (the single book) —
/// and two wallets of their own folders: one logged in as the three (every book cached by
/// `cardwallet sync --book all`, the All view remembered as shown), one as the fourth (cached by
/// `cardwallet sync`). Each book's first cards are §4's sample cards, so both first frames show
/// the same marker.
final class AllViewFixture: Sendable {
    static let password = "bench-books-1"
    static let users = ["book-a", "book-b", "book-c", "single"]
    static let pageSize = 200

    let server: RunningMockServer
    let folder: TemporaryFolder
    let perBook: Int
    /// The environment of the wallet of three accounts (the All view).
    let all: [String: String]
    /// The environment of the wallet of the one big book.
    let single: [String: String]

    private init(
        server: RunningMockServer, folder: TemporaryFolder, perBook: Int, all: [String: String],
        single: [String: String]
    ) {
        self.server = server
        self.folder = folder
        self.perBook = perBook
        self.all = all
        self.single = single
    }

    static func email(_ user: String) -> String { "\(user)@bench.cardwallet.dev" }

    /// Starts the server, logs the wallets in and fills their caches.
    ///
    /// - Throws: ``BenchError`` when a step fails.
    static func start(perBook: Int, cardwallet: String) async throws -> AllViewFixture {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        configuration.accessTokenTTL = .hours(12)
        configuration.users = users.map {
            MockServerConfiguration.SeedUser(id: "user-\($0)", email: email($0), name: $0, password: password)
        }
        let sample = TerminalFixture.cards(count: perBook * 3)
        configuration.seedCards = users.flatMap { user in
            sample.prefix(user == "single" ? perBook * 3 : perBook).enumerated().map { index, fields in
                SeedCard(id: "\(user)-\(index)", owner: email(user), fields: fields)
            }
        }
        let folder = try TemporaryFolder("all-view")
        let server: RunningMockServer
        do {
            server = try await MockServer.start(configuration: configuration)
        } catch {
            folder.remove()
            throw BenchError("the mock server did not start with \(perBook * 6) cards: \(error)")
        }
        do {
            let all = try environment(folder, "all", server: server)
            let single = try environment(folder, "single", server: server)
            let url = server.baseURLString
            for user in users.dropLast() { try logIn(cardwallet, user, all, server: url) }
            try logIn(cardwallet, "single", single, server: url)
            try sync(cardwallet, ["sync", "--book", "all"], all, expecting: perBook * 3)
            try sync(cardwallet, ["sync"], single, expecting: perBook * 3)
            try remember(showingAll: all)
            return AllViewFixture(server: server, folder: folder, perBook: perBook, all: all, single: single)
        } catch {
            await server.stop()
            folder.remove()
            throw error
        }
    }

    private static func environment(_ folder: TemporaryFolder, _ name: String, server: RunningMockServer) throws
        -> [String: String]
    {
        TerminalFixture.terminalEnvironment(home: try folder.folder("\(name)/home")).merging([
            "XDG_CONFIG_HOME": try folder.folder("\(name)/config"),
            "XDG_STATE_HOME": try folder.folder("\(name)/state"),
            "XDG_CACHE_HOME": try folder.folder("\(name)/cache"),
            "CARDWALLET_SYNC_INTERVAL": "0",
        ]) { $1 }
    }

    /// `cardwallet login --password-stdin --name USER`.
    private static func logIn(_ cardwallet: String, _ user: String, _ environment: [String: String], server: String)
        throws
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cardwallet)
        process.arguments = ["login", "--server", server, "--email", email(user), "--password-stdin", "--name", user]
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("cardwallet login as \(user) exited with status \(process.terminationStatus)")
        }
    }

    private static func sync(
        _ cardwallet: String, _ arguments: [String], _ environment: [String: String], expecting count: Int
    ) throws {
        let synced = try Spawn.captured(cardwallet, arguments, environment: environment)
        guard synced.status == 0, synced.output.contains("\(count) card(s) in the cache") else {
            throw BenchError(
                "cardwallet \(arguments.joined(separator: " ")) did not cache \(count) cards: status \(synced.status), \(synced.output)"
            )
        }
    }

    /// Remembers the All view as the one shown last (`books.json` beside the caches), as `B` does.
    private static func remember(showingAll environment: [String: String]) throws {
        let path = (environment["XDG_CACHE_HOME"] ?? "") + "/cardwallet/books.json"
        var contents =
            (FileManager.default.contents(atPath: path)).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            } ?? ["version": 1, "accounts": [String: Any]()]
        contents["showsAll"] = true
        let data = try JSONSerialization.data(withJSONObject: contents)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        chmod(path, 0o600)
    }

    /// `cardwallet sync --book all --watch --interval 1` for `seconds` on the three unchanged
    /// books: the requests the server answered, the syncs they make, the CPU the process used.
    /// The window is waited out without holding a thread: the in-process server answers on them.
    func idleSync(cardwallet: String, seconds: Double) async throws -> (requests: Int, syncs: Double, cpu: Double) {
        let before = server.statistics.total
        var usageBefore = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usageBefore)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cardwallet)
        process.arguments = ["sync", "--book", "all", "--watch", "--interval", "1"]
        process.environment = all
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.finish() }
        }
        try process.run()
        try await Task.sleep(for: .seconds(seconds))
        process.interrupt()
        for await _ in exited {}
        var usageAfter = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usageAfter)
        func cpu(_ usage: rusage) -> Double {
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
                + Double(usage.ru_stime.tv_usec) / 1e6
        }
        let requests = server.statistics.total - before
        let pages = Double((perBook + Self.pageSize - 1) / Self.pageSize)
        return (requests, Double(requests) / (3 * pages), cpu(usageAfter) - cpu(usageBefore))
    }

    /// Stops the server and removes the folders.
    func stop() async {
        await server.stop()
        folder.remove()
    }
}
