import Foundation
import OAuthTestSupport
import TestSupport
import Testing

/// `cardwallet login --oauth` as a person uses it, against Authlib's authorization server and a
/// Radicale that takes its tokens by introspection, the test playing the browser from the
/// address the command prints; then the scripting commands on the book, and ten of them at once
/// after the server expired the access token: one refresh.
@Suite(.serialized) struct OAuthCommandTests {
    struct World {
        let peers: OAuthPeers
        let folder: TemporaryFolder

        /// A private home, no keyring (no session bus: the refresh token goes to the token file,
        /// with a note), the client from the environment as a config file would give it.
        var environment: [String: String] {
            [
                "HOME": folder.path("home"), "XDG_STATE_HOME": folder.path("state"),
                "XDG_CONFIG_HOME": folder.path("config"), "XDG_CACHE_HOME": folder.path("cache"), "LANG": "C.UTF-8",
                "CARDWALLET_OAUTH_CLIENT_ID": peers.clientID, "CARDWALLET_OAUTH_CLIENT_SECRET": peers.clientSecret,
                "CARDWALLET_SERVER": peers.bookURL.absoluteString,
            ]
        }

        func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CLIProcess {
            try CLIProcess(
                arguments, environment: environment.merging(extra) { $1 }, input: nil, scratch: folder)
        }

        func run(_ arguments: String...) async throws -> CLIResult {
            try await start(arguments).finish()
        }

        /// `cardwallet login --oauth ISSUER`, the test opening the address it prints.
        func logIn(choice: TestBrowser.Choice = .allow, arguments: [String]? = nil) async throws -> CLIResult {
            let login = try start(arguments ?? ["login", "--oauth", peers.issuer.absoluteString])
            var address: URL?
            try await waitUntil(timeout: .seconds(60), "the login to print the address") {
                address = Self.authorizationAddress(in: login.stderrSoFar)
                return address != nil
            }
            try await TestBrowser.visit(try #require(address), choice: choice)
            return try await login.finish()
        }

        /// The authorization address in what the login printed.
        static func authorizationAddress(in text: String) -> URL? {
            text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") && $0.contains("/authorize?") }
                .flatMap { URL(string: String($0)) }
        }

        /// The access tokens the token file keeps.
        var accessTokens: [String] {
            let text = tokenFileText
            return text.matches(of: #/"accessToken"\s*:\s*"([^"]+)"/#).map { String($0.output.1) }
        }

        var tokenFileText: String {
            (try? String(contentsOfFile: folder.path("state/cardwallet/tokens.json"), encoding: .utf8)) ?? ""
        }
    }

    static func with(_ body: (World) async throws -> Void) async throws {
        try await OAuthPeers.with { peers in
            let folder = try TemporaryFolder("oauth-cli")
            defer { folder.remove() }
            try await body(World(peers: peers, folder: folder))
        }
    }

    @Test func aLoginInTheBrowserThenTheCommandsOnTheBook() async throws {
        try await Self.with { world in
            let login = try await world.logIn()
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("Logged in as <alice@example.com>"), "\(login.stdout)")
            #expect(login.stderr.contains("Open this address in a browser to log in"))
            // No keyring here: the refresh token goes to the token file, and the login says so.
            #expect(
                login.stderr.contains("the refresh token is kept in plain text in the token file"), "\(login.stderr)")
            #expect(login.stderr.contains("log in again to move it there."), "\(login.stderr)")
            #expect(!login.stderr.contains(world.peers.clientSecret))

            let add = try await world.run("add", "--name", "Ada Lovelace", "--email", "ada@example.com")
            #expect(add.status == 0, "\(add)")
            let list = try await world.run("list")
            #expect(list.stdout.contains("Ada Lovelace"), "\(list)")
            let verbose = try await world.run("list", "-v")
            // `-v` shows each exchange; the token that went with it is in no line.
            let tokens = world.accessTokens
            #expect(!tokens.isEmpty && verbose.stderr.contains("REPORT"), "\(world.tokenFileText)")
            for token in tokens { #expect(!verbose.stderr.contains(token)) }
            #expect(!verbose.stderr.contains(world.peers.clientSecret))
            let status = try await world.run("status")
            #expect(status.stdout.contains("alice@example.com"), "\(status)")
            #expect(status.stdout.contains("refresh token: in the token file"), "\(status)")
            #expect(status.stdout.contains("OAuth 2.0: \(world.peers.issuer.absoluteString), client cardwallet"))
        }
    }

    @Test func tenCommandsAtOnceAfterTheAccessTokenExpiredMakeOneRefresh() async throws {
        try await Self.with { world in
            #expect(try await world.logIn().status == 0)
            #expect(try await world.run("add", "--name", "Grace Hopper").status == 0)
            try await world.peers.expireAccessTokens()
            let before = try await world.peers.refreshes()
            let processes = try (0..<10).map { _ in try world.start(["list"]) }
            var results: [CLIResult] = []
            for process in processes { results.append(try await process.finish()) }
            for result in results { #expect(result.status == 0 && result.stdout.contains("Grace Hopper"), "\(result)") }
            #expect(try await world.peers.refreshes() == before + 1)
        }
    }

    @Test func aRefusedOrUnansweredLoginSaysWhyAndStoresNothing() async throws {
        try await Self.with { world in
            let denied = try await world.logIn(choice: .deny)
            #expect(denied.status == 3, "\(denied)")
            #expect(denied.stderr.contains("The access was denied"), "\(denied.stderr)")
            #expect(world.tokenFileText.isEmpty)

            let never = try await world.start(
                ["login", "--oauth", world.peers.issuer.absoluteString],
                environment: ["CARDWALLET_OAUTH_REDIRECT_TIMEOUT": "2s"]
            ).finish()
            #expect(never.status == 3, "\(never)")
            #expect(never.stderr.contains("No answer came back from the browser within 2 s"), "\(never.stderr)")
            #expect(world.tokenFileText.isEmpty)

            let noClient = try await world.start(
                ["login", "--oauth", "google"], environment: ["CARDWALLET_OAUTH_CLIENT_ID": ""]
            ).finish()
            #expect(noClient.status == 64, "\(noClient)")
            #expect(noClient.stderr.contains("--client-id"), "\(noClient.stderr)")
        }
    }

    @Test func aRevokedLoginEndsTheSessionAndSaysToLogInAgain() async throws {
        try await Self.with { world in
            #expect(try await world.logIn().status == 0)
            #expect(try await world.run("add", "--name", "Katherine Johnson").status == 0)
            try await world.peers.revokeUser()
            try await world.peers.expireAccessTokens()
            let ended = try await world.run("list")
            #expect(ended.status == 3, "\(ended)")
            #expect(ended.stderr.lowercased().contains("log in again"), "\(ended.stderr)")
            // E06's path: the access token and the refresh token are gone from the token file.
            #expect(world.accessTokens.isEmpty, "\(world.tokenFileText)")
            // Logging in again as the stored account needs no --oauth: the record says how.
            let again = try await world.logIn(arguments: ["login"])
            #expect(again.status == 0, "\(again)")
            let list = try await world.run("list")
            #expect(list.stdout.contains("Katherine Johnson"), "\(list)")
        }
    }

    @Test func ctrlCWhileWaitingForTheBrowserStoresNothingAndClosesTheListener() async throws {
        try await Self.with { world in
            let login = try world.start(["login", "--oauth", world.peers.issuer.absoluteString])
            var address: URL?
            try await waitUntil(timeout: .seconds(60), "the login to print the address") {
                address = World.authorizationAddress(in: login.stderrSoFar)
                return address != nil
            }
            let authorization = try #require(address)
            let components = URLComponents(url: authorization, resolvingAgainstBaseURL: false)
            let redirect = try #require(
                components?.queryItems?.first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
            login.signal(SIGINT)
            let result = try await login.finish()
            // Ended by the signal (the shell's 130), as the other commands' Ctrl-C (InterruptTests).
            #expect([SIGINT, 128 + SIGINT].contains(result.status), "\(result)")
            #expect(world.tokenFileText.isEmpty)
            // The listener is gone: the browser coming back now finds nobody.
            await #expect(throws: (any Error).self) { _ = try await TestHTTP.request(redirect) }
        }
    }
}
