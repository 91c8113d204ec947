import CardAPIContract
import CardModels
import Foundation
import TestSupport
import Testing
import TokenStore

/// One hostile test's world: a ``HostileServer`` and private `HOME`, `XDG_STATE_HOME` and
/// `XDG_CONFIG_HOME` folders, with the `cardwallet` binary run against the server.
struct HostileWorld: Sendable {
    let server: HostileServer
    let folder: TemporaryFolder

    /// Runs `body` against a server answering with `handler`; always stops it and removes the folders.
    static func with(
        _ handler: @escaping @Sendable (HostileRequest) async -> HostileReply,
        _ body: (HostileWorld) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder("hostile")
        defer { folder.remove() }
        try await HostileServer.with(handler) { server in
            try await body(HostileWorld(server: server, folder: folder))
        }
    }

    /// The environment every process gets: nothing is inherited from the test runner.
    var environment: [String: String] {
        [
            "HOME": folder.path("home"), "XDG_STATE_HOME": folder.path("state"),
            "XDG_CONFIG_HOME": folder.path("config"), "CARDWALLET_SERVER": server.baseURL, "LANG": "C.UTF-8",
        ]
    }

    /// The token file the commands use.
    var tokenFile: String { folder.path("state") + "/cardwallet/tokens.json" }

    /// Starts `cardwallet arguments…` without waiting.
    func start(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws
        -> CLIProcess
    {
        try CLIProcess(arguments, environment: environment.merging(extra) { $1 }, input: input, scratch: folder)
    }

    /// Runs `cardwallet arguments…` to completion.
    func run(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        try await start(arguments, input: input, environment: extra).finish(sourceLocation: sourceLocation)
    }

    /// Stores a session for the server as a login would have, with the given tokens.
    func storeSession(
        accessToken: String = Hostile.accessToken, refreshToken: String = Hostile.refreshToken,
        accessValidFor: TimeInterval = 600
    ) async throws {
        let now = Date()
        try await TokenStore(path: tokenFile).save(
            TokenItem(
                server: server.baseURL, account: Hostile.email, accessToken: accessToken,
                accessTokenExpiresAt: now + accessValidFor, refreshToken: refreshToken,
                refreshTokenExpiresAt: now + 86_400, userID: "u1", displayName: "Hostile"))
    }

    /// The token file's bytes, or empty when there is none.
    func tokenFileText() -> String {
        (try? String(contentsOfFile: tokenFile, encoding: .utf8)) ?? ""
    }
}

/// Fixtures and checks shared by the hostile tests.
enum Hostile {
    static let email = "ada@hostile.example"
    static let password = "Hostile-Pa55word"
    static let accessToken = "cwa_hostileAccess0123456789"
    static let refreshToken = "cwr_hostileRefresh0123456789"

    /// A token grant for `email`, with the given tokens.
    static func grant(
        accessToken: String = "cwa_fresh0123456789abcdef", refreshToken: String = "cwr_fresh0123456789abcdef",
        email: String = email
    ) -> TokenGrant {
        let now = Date()
        return TokenGrant(
            accessToken: accessToken, refreshToken: refreshToken, accessTokenExpiresAt: now + 600,
            refreshTokenExpiresAt: now + 86_400, user: User(id: "u1", email: email, name: "Ada"))
    }

    /// A card summary with id `id`.
    static func card(_ id: String, name: String = "Card", updatedAt: Date = Date(timeIntervalSince1970: 1_795_253_400))
        -> CardSummary
    {
        CardSummary(id: id, name: name, updatedAt: updatedAt)
    }

    /// What an attacker puts in server text: OSC 52 (clipboard), OSC 0 (title), CSI 2J, BEL,
    /// NUL, a C1 control (NEL) and a right-to-left override.
    static let injection = "\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}]0;pwned\u{07}\u{1B}[2J\u{0}\u{85}\u{9B}31m\u{202E}"

    /// The forbidden characters found in `text`: C0 controls other than line feed and tab, DEL,
    /// C1 controls, and bidirectional overrides, embeddings and isolates.
    static func rawControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
            default: false
            }
        }
    }

    /// Records an issue for each output of `result` that holds a raw control character.
    static func expectNoRawControls(
        _ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let found = rawControls(in: text)
            #expect(
                found.isEmpty,
                "raw \(found.map { String($0.value, radix: 16) }) in the \(name) of \(result.arguments): \(result)",
                sourceLocation: sourceLocation)
        }
    }
}
