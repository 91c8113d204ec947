import CardAPI
import CardMockServer
import CardModels
import CardWalletUI
import Foundation
import Networking
import TokenStore

/// What §4 runs: the in-process mock server holding N sample cards for the demo user (a session
/// stored in a token file, so `cardwallet` opens straight on the list), and the same cards
/// exported for abook, all under a private temporary folder.
final class TerminalFixture: Sendable {
    /// The server's statistics key for the list request.
    static let listRoute = "GET /cards"
    /// A name in the first rows of both lists (sample card 1, after the selected card 0).
    static let marker = SampleCards.summary(number: 1).name

    let server: RunningMockServer
    let folder: TemporaryFolder
    /// How many cards the server and the addressbook hold.
    let count: Int
    /// The addressbook file.
    let addressBook: String
    /// The token file holding the demo user's session.
    let tokenFile: String
    /// The account logged in (the demo user's email).
    let account: String

    private init(
        server: RunningMockServer, folder: TemporaryFolder, count: Int, addressBook: String, tokenFile: String,
        account: String
    ) {
        self.server = server
        self.folder = folder
        self.count = count
        self.addressBook = addressBook
        self.tokenFile = tokenFile
        self.account = account
    }

    /// The first `count` sample cards (`SampleCards`, as §3 uses), as the server seeds them.
    static func cards(count: Int) -> [CardFields] {
        (0..<count).map { SampleCards.card(SampleCards.summary(number: $0)).fields }
    }

    /// Starts the server with `count` cards (access tokens live 12 hours: nothing is refreshed
    /// during a run), logs in into a token file, writes the addressbook.
    ///
    /// - Throws: ``BenchError`` when the server does not start, the login fails or a file
    ///   cannot be written.
    static func start(count: Int) async throws -> TerminalFixture {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        configuration.accessTokenTTL = .hours(12)
        guard let user = configuration.users.first(where: { $0.password != nil }), let password = user.password else {
            throw BenchError("the test configuration has no user with a password")
        }
        let fields = cards(count: count)
        configuration.seedCards = fields.enumerated().map { index, card in
            SeedCard(id: "card-\(index)", owner: user.email, fields: card)
        }
        let folder = try TemporaryFolder("terminal")
        let server: RunningMockServer
        do {
            server = try await MockServer.start(configuration: configuration)
        } catch {
            folder.remove()
            throw BenchError("the mock server did not start with \(count) sample cards: \(error)")
        }
        do {
            let tokenFile = try folder.folder("state/cardwallet") + "/tokens.json"
            let transport = LiveTransport()
            do {
                let client = CardAPIClient(
                    configuration: CardAPIConfiguration(server: server.baseURL),
                    tokenStore: TokenStore(path: tokenFile),
                    transport: transport)
                _ = try await client.login(email: user.email, password: password)
                try? await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw BenchError("logging in to the mock server failed: \(error)")
            }
            let addressBook = folder.path + "/addressbook"
            try write(AbookExport.addressBook(fields), to: addressBook)
            for name in ["home", "config"] { _ = try folder.folder(name) }
            return TerminalFixture(
                server: server, folder: folder, count: count, addressBook: addressBook, tokenFile: tokenFile,
                account: user.email)
        } catch {
            await server.stop()
            folder.remove()
            throw error
        }
    }

    /// `cardwallet` (the wallet, no subcommand) on this server with the stored session.
    func wallet(executable: String) -> TerminalProgram {
        TerminalProgram(
            label: "cardwallet", path: executable, arguments: [],
            environment: Self.terminalEnvironment(home: folder.path + "/home").merging([
                "XDG_CONFIG_HOME": folder.path + "/config",
                "XDG_STATE_HOME": folder.path + "/state",
                "CARDWALLET_SERVER": server.baseURLString,
                "CARDWALLET_TOKEN_FILE": tokenFile,
            ]) { $1 },
            marker: Self.marker)
    }

    /// abook on the exported addressbook, with an abookrc for a `columns`-wide screen.
    ///
    /// - Throws: ``BenchError`` when the abookrc cannot be written.
    func abook(executable: String, columns: Int) throws -> TerminalProgram {
        let configuration = folder.path + "/abookrc-\(columns)"
        try Self.write(AbookExport.configuration(columns: columns), to: configuration)
        return TerminalProgram(
            label: "abook", path: executable, arguments: ["--config", configuration, "--datafile", addressBook],
            environment: Self.terminalEnvironment(home: folder.path + "/home"), marker: Self.marker)
    }

    /// How many list requests the server has answered with 200.
    var listRequests: Int { server.statistics.count(Self.listRoute, status: 200) }

    /// Stops the server and removes the folder.
    func stop() async {
        await server.stop()
        folder.remove()
    }

    /// What a terminal emulator gives a program: a terminal type with colours, a UTF-8 locale,
    /// a home (a private temporary one) and a plain PATH.
    static func terminalEnvironment(home: String) -> [String: String] {
        ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin"]
    }

    /// The first executable called `name` on this process's PATH, if any.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BenchError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
