import CardAPI
import CardModels
import CardWalletLive
import Foundation
import Networking
import Testing
import TokenStore

@testable import cardwallet

/// Each failure maps to its documented exit status; the reorder rule is pure and exact.
@Suite struct ErrorMappingTests {
    static func server(_ code: ErrorCode?, status: Int) -> CardAPIError {
        .server(ServerError(statusCode: status, code: code, message: "m", request: "GET /v1/x"))
    }

    @Test func cardAPIErrorsMapToTheirExitStatus() {
        let cases: [(CardAPIError, Int32)] = [
            (.notLoggedIn(server: "s", account: nil), 3),
            (.sessionExpired(server: "s", account: "a"), 3),
            (.multipleAccounts(server: "s", accounts: ["a", "b"]), 3),
            (Self.server(.loginFailed, status: 401), 3),
            (Self.server(.cardNotFound, status: 404), 4),
            (.invalidCardID("../x"), 4),
            (Self.server(.versionConflict, status: 412), 5),
            (.cannotConnect(server: "s", endpoint: "h:1", reason: "connection refused"), 6),
            (.timedOut(url: "u", reason: "r"), 6),
            (.connectionFailed(url: "u", reason: "r"), 6),
            (Self.server(.badRequest, status: 400), 64),
            (Self.server(.badRequest, status: 404), 64),  // no such endpoint: the server setting is wrong
            (.invalidImage(path: "p", problem: .missing), 64),
            (.invalidServerURL("x"), 64),
            (.insecureServer("http://192.0.2.7/v1"), 64),
            (.unexpectedResponse(UnexpectedResponse(statusCode: 200, request: "r", expected: "e", detail: "d")), 1),
            (.cancelled, 130),
            (Self.server(.internalError, status: 500), 1),
            (Self.server(.tooManyRequests, status: 429), 1),
            (Self.server(nil, status: 502), 1),
            (.tokenStore(.noStateLocation), 1),
            (.excessiveRefresh(count: 5, window: .seconds(30)), 1),
        ]
        for (error, status) in cases {
            #expect(CLIExitCode.status(for: error) == status, "\(error)")
        }
    }

    @Test func reorderPutsTheGivenIdsFirstAndKeepsTheRestInOrder() throws {
        let current = ["a", "b", "c", "d", "e"]
        #expect(try ReorderCommand.order(moving: ["d"], toFrontOf: current) == ["d", "a", "b", "c", "e"])
        #expect(try ReorderCommand.order(moving: ["e", "a"], toFrontOf: current) == ["e", "a", "b", "c", "d"])
        #expect(
            try ReorderCommand.order(moving: ["e", "d", "c", "b", "a"], toFrontOf: current)
                == ["e", "d", "c", "b", "a"])
        #expect(try ReorderCommand.order(moving: ["a", "b"], toFrontOf: current) == current)
        #expect(throws: CommandFailure.self) { try ReorderCommand.order(moving: ["a", "zz"], toFrontOf: current) }
        do {
            _ = try ReorderCommand.order(moving: ["zz", "\u{1B}[2J"], toFrontOf: current)
            Issue.record("unknown ids were accepted")
        } catch {
            #expect(error.status == CLIExitCode.notFound)
            #expect(error.message.contains("zz, ^[[2J"))
        }
    }

    @Test func setupErrorsSayWhatToSet() {
        #expect(ClientSetupError.invalidServer("nope").description.contains("CARDWALLET_SERVER"))
        #expect(ClientSetupError.tokenStore(.noStateLocation).description.contains("XDG_STATE_HOME or HOME"))
    }

    @Test func theFactoryHonoursTheStateHomeAndTheTokenFileSetting() throws {
        var settings = ClientSettings.defaults
        let store = try LiveBackends.tokenStore(for: settings, environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
        #expect(store.path == "/s/cardwallet/tokens.json")
        let fromHome = try LiveBackends.tokenStore(for: settings, environment: ["HOME": "/h"])
        #expect(fromHome.path == "/h/.local/state/cardwallet/tokens.json")
        #expect(throws: ClientSetupError.tokenStore(.noStateLocation)) {
            try LiveBackends.tokenStore(for: settings, environment: [:])
        }
        settings.tokenFile = "~/t/tokens.json"
        #expect(try LiveBackends.tokenStore(for: settings, environment: ["HOME": "/h"]).path == "/h/t/tokens.json")
        settings.tokenFile = "/abs/tokens.json"
        #expect(try LiveBackends.tokenStore(for: settings, environment: [:]).path == "/abs/tokens.json")
    }

    @Test func theFactoryRefusesABadServerAndBuildsTheLivePieces() async throws {
        var settings = ClientSettings.defaults
        settings.server = "ftp://example.com"
        #expect(throws: ClientSetupError.invalidServer("ftp://example.com")) {
            try LiveBackends.make(settings: settings, environment: ["HOME": "/h"])
        }
        settings.server = "http://127.0.0.1:9/v1/"
        settings.requestTimeout = .seconds(5)
        settings.connectTimeout = .seconds(2)
        settings.logBodyPreviewBytes = 100
        let live = try LiveBackends.make(settings: settings, environment: ["HOME": "/h"])
        #expect(live.server.absoluteString == "http://127.0.0.1:9/v1")
        #expect(live.cardAPIClient(for: live.server).configuration.serverKey == "http://127.0.0.1:9/v1")
        #expect(live.cardAPIClient(for: live.server).configuration.requestTimeout == .seconds(5))
        #expect(live.cardAPIClient(for: live.server).configuration.session.refreshMargin == .seconds(30))
        #expect(live.transport.configuration.connectTimeout == .seconds(2))
        #expect(live.transport.configuration.readTimeout == .seconds(5))
        #expect(live.log.configuration.bodyPreviewLimit == 100)
        #expect(live.log.configuration.tagExtractor != nil)
        await live.shutdown()
    }
}
