import CardAPI
import CardCache
import CardMockServer
import CardModels
import CardWalletLive
import Foundation
import Logging
import Networking
import Testing
import TokenStore

/// The outbox under two processes (docs/Cache.md, *The claim and the lease*): `sync` and `sync`,
/// or the interface's replay and `sync`, on one cache and a slowed server, send each change once.
extension EndToEndTests {
    /// Every answer takes a while, so the two replays overlap.
    static var slowServer: MockServerConfiguration {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .milliseconds(150)
        return configuration
    }

    /// Ten changes made offline: eight additions, an edit and a delete.
    static func queueTenChanges(_ world: CLIWorld) async throws {
        #expect(try await world.run("show", "demo-01").status == 0)
        let cache = try Self.cache(world)
        let ada = try #require(try cache.card(id: "demo-01")).card
        for index in 1...8 {
            try cache.enqueue(.add(localID: "local:\(index)", fields: CardFields(name: "Twice \(index)"), image: nil))
        }
        var fields = ada.fields
        fields.title = "Edited once"
        try cache.enqueue(.edit(cardID: ada.id, fields: fields, baseRevision: ada.revision))
        try cache.enqueue(.delete(cardID: "demo-12", baseRevision: CardRevision(1)))
        cache.close()
    }

    /// The server got each change once, and the outbox is empty.
    static func expectEachChangeOnce(_ world: CLIWorld, sent: [Int]) async throws {
        #expect(sent.reduce(0, +) == 10, "\(sent)")
        let statistics = world.server.statistics
        #expect(statistics.count("POST /card") == 8, "each addition reached the server once")
        #expect(statistics.count("PUT /card/{cardId}") == 1)
        #expect(statistics.count("DELETE /card/{cardId}") == 1)
        let list = try await world.run("list", "--json")
        for index in 1...8 {
            #expect(list.stdout.components(separatedBy: "\"Twice \(index)\"").count == 2, "Twice \(index) once")
        }
        let cache = try Self.cache(world)
        #expect(try cache.outbox().isEmpty)
        cache.close()
    }

    /// The number `Sent N change(s)` reports.
    static func sentCount(_ result: CLIResult) -> Int? {
        guard let range = result.stdout.range(of: "Sent ") else { return nil }
        return Int(result.stdout[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func twoSyncsAtOnceSendEachChangeOnce() async throws {
        try await CLIWorld.with(Self.slowServer) { world in
            try await world.login()
            try await Self.queueTenChanges(world)
            let first = try world.start(["sync"])
            let second = try world.start(["sync"])
            let results = [try await first.finish(), try await second.finish()]
            #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
            try await Self.expectEachChangeOnce(world, sent: results.compactMap(Self.sentCount))
        }
    }

    /// The interface's replay (`CachedWallet.replayOutbox`, here in the test process) and a
    /// `cardwallet sync` process at once.
    @Test func theInterfacesReplayAndSyncAtOnceSendEachChangeOnce() async throws {
        try await CLIWorld.with(Self.slowServer) { world in
            try await world.login()
            try await Self.queueTenChanges(world)
            let transport = LiveTransport()
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(server: world.server.baseURL, account: CLIWorld.email),
                tokenStore: TokenStore(path: world.tokenFile, lockTimeout: .seconds(60)), transport: transport)
            let wallet = await CachedWallet.open(
                backend: CardAPIBackend(client: client), location: CacheLocation(folder: Self.cacheFolder(world)),
                logger: Logger(label: "test.interface"))
            #expect(wallet.cache != nil)
            let sync = try world.start(["sync"])
            let report = await wallet.replayOutbox()
            let result = try await sync.finish()
            wallet.cache?.close()
            try? await transport.shutdown()
            #expect(result.status == 0 && report.refused.isEmpty, "\(result) \(report)")
            try await Self.expectEachChangeOnce(world, sent: [report.sent] + [Self.sentCount(result)].compactMap { $0 })
        }
    }
}
