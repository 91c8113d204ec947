import CardAPI
import CardBackend
import CardCache
import CardMockServer
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import LiveTestSupport
import Logging
import Networking
import TestSupport
import Testing

/// The interface's reducer on the live glue and the real mock server (in-process, port 0, a data
/// file so it can stop and start again): an edit made offline to a card someone changed on the
/// server meanwhile opens the conflict view when the app is back online, is never sent over the
/// server's change by itself, and is resolved by the person's choice, once.
@Suite(.serialized)
struct OfflineConflictGlueTests {
    private static let logger = Logger(label: "test.offline-conflict")

    /// Everything a test needs, the server already stopped and started again after the offline
    /// edit and the other person's change.
    private struct World {
        var server: RunningMockServer
        let transport: LiveTransport
        let performer: CallPerformer
        /// Another client of the same account: the other person.
        let other: CardAPIClient
        var state: AppState
        /// The card as read before going offline.
        let card: Card
        /// The cache folder and token file.
        let folder: TemporaryFolder
    }

    /// Performs the calls of `effects` through the performer, feeding each outcome back, until
    /// none is left; returns the calls made, in order.
    @discardableResult
    private static func drive(_ effects: [Effect], _ world: inout World) async -> [AppCall] {
        var queue = effects
        var made: [AppCall] = []
        while !queue.isEmpty {
            guard case .perform(let id, let call) = queue.removeFirst() else { continue }
            made.append(call)
            let outcome = await world.performer.perform(call)
            queue += world.state.reduce(.completed(id, outcome))
        }
        return made
    }

    private static func edited(_ card: Card) -> CardFields {
        var fields = card.fields
        fields.title = "Edited offline"
        return fields
    }

    /// Online, offline (the edit queued), the other person's change, the server back: the app
    /// reloads and the conflict view is open.
    private static func withConflict(_ body: (inout World) async throws -> Void) async throws {
        let folder = try TemporaryFolder("offline-conflict")
        defer { folder.remove() }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.path("server.sqlite")
        var server = try await MockServer.start(configuration: configuration)
        let transport = LiveTransport()
        let performer = CallPerformer.testing(
            server: server.baseURL, tokenStore: folder.tokenStore, transport: transport,
            cache: CacheLocation(folder: folder.path("cache")), logger: logger)
        do {
            let login = await performer.perform(
                .logIn(server: server.baseURLString, email: GlueHarness.email, password: GlueHarness.password))
            try #require((try? login.get()) != nil)
            var state = AppState(server: server.baseURLString)
            let start = state.reduce(
                .session(.loggedIn(email: GlueHarness.email, server: performer.accounts.backend.server)))
            guard case .success(.card(let card)) = await performer.perform(.loadCard(id: "demo-02")) else {
                Issue.record("the card did not load")
                throw CancellationError()
            }
            let other = CardAPIClient(
                configuration: CardAPIConfiguration(server: server.baseURL), tokenStore: folder.tokenStore,
                transport: transport)
            var world = World(
                server: server, transport: transport, performer: performer, other: other, state: state,
                card: card, folder: folder)
            await drive(start, &world)
            #expect(world.state.list.cards.loadedCount == 12)
            await performer.accounts.settleBackgroundReads()

            // Offline: the edit waits in the outbox.
            let port = server.port
            await server.stop()
            let queued = await performer.perform(
                .updateCard(id: card.id, fields: edited(card), revision: card.revision))
            guard case .success(.queued) = queued else {
                Issue.record("not queued: \(queued)")
                throw CancellationError()
            }

            // The server back on the same port and data; someone changes the card meanwhile.
            configuration.port = port
            server = try await MockServer.start(configuration: configuration)
            world.server = server
            var theirs = card.fields
            theirs.company = "Changed on the server"
            _ = try await other.updateCard(id: card.id, fields: theirs, version: card.version)

            // Back online: the outbox is sent before the list, the edit refused, the view open.
            await drive(world.state.reduce(.key(.char("r"))), &world)
            try await body(&world)
        } catch {
            if !(error is CancellationError) { Issue.record("\(error)") }
        }
        try? await transport.shutdown()
        await server.stop()
    }

    private static func outbox(_ world: World) async throws -> [OutboxEntry] {
        try #require(await world.performer.accounts.cachedWallet()?.cache).outbox()
    }

    @Test func keepingYoursSendsItOnceOverTheServersVersion() async throws {
        try await Self.withConflict { world in
            #expect(world.state.screen == .form)
            let form = try #require(world.state.form)
            #expect(form.conflict?.fields.company == "Changed on the server")
            #expect(form.cardFields.title == "Edited offline")
            #expect(form.cardFields.company == "Changed on the server", "their change is not undone")
            // Nothing overwritten: the server holds the other person's change only.
            let before = try await world.other.card(id: world.card.id)
            #expect(before.fields.company == "Changed on the server")
            #expect(before.fields.title == world.card.fields.title)
            let puts = world.server.statistics.count("PUT /card/{cardId}")
            #expect(puts == 2, "their change, and the refused offline edit")
            #expect(try await Self.outbox(world).map(\.state) == [.failed])

            // The person keeps theirs: one PUT with the server's version, then the entry goes.
            let made = await Self.drive(world.state.reduce(.key(.ctrl("s"))), &world)
            #expect(made.count == 2, "\(made)")
            #expect(made.last == .resolveOfflineEdit(entry: form.offlineEntry ?? -1, keptMine: true))
            #expect(world.state.screen == .list)
            let after = try await world.other.card(id: world.card.id)
            #expect(after.fields.title == "Edited offline")
            #expect(after.fields.company == "Changed on the server")
            #expect(world.server.statistics.count("PUT /card/{cardId}") == puts + 1)
            #expect(try await Self.outbox(world).isEmpty)

            // Later reloads send nothing again and open nothing.
            await Self.drive(world.state.reduce(.key(.char("r"))), &world)
            #expect(world.state.screen == .list)
            #expect(world.server.statistics.count("PUT /card/{cardId}") == puts + 1)
        }
    }

    @Test func keepingTheirsDropsTheEditWithoutSendingIt() async throws {
        try await Self.withConflict { world in
            #expect(world.state.screen == .form)
            let puts = world.server.statistics.count("PUT /card/{cardId}")
            await Self.drive(world.state.reduce(.key(.escape)), &world)
            let made = await Self.drive(world.state.reduce(.key(.char("y"))), &world)
            #expect(made.count == 1, "\(made)")
            guard case .resolveOfflineEdit(_, keptMine: false)? = made.first else {
                Issue.record("not resolved: \(made)")
                return
            }
            #expect(world.server.statistics.count("PUT /card/{cardId}") == puts, "nothing sent")
            #expect(try await Self.outbox(world).isEmpty)
            let card = try await world.other.card(id: world.card.id)
            #expect(card.fields.company == "Changed on the server")
            #expect(card.fields.title == world.card.fields.title)
        }
    }

    /// A conflict the person did not settle (the app quit) comes back at the next start.
    @Test func anUnsettledConflictComesBackAtTheNextStart() async throws {
        try await Self.withConflict { world in
            let entry = try #require(world.state.form?.offlineEntry)
            // A new process: a new performer and reducer on the same cache folder and tokens.
            let performer = CallPerformer.testing(
                server: world.server.baseURL, tokenStore: world.folder.tokenStore, transport: world.transport,
                cache: CacheLocation(folder: world.folder.path("cache")), logger: Self.logger)
            var next = World(
                server: world.server, transport: world.transport, performer: performer,
                other: world.other, state: AppState(server: world.server.baseURLString), card: world.card,
                folder: world.folder)
            let puts = world.server.statistics.count("PUT /card/{cardId}")
            let start = next.state.reduce(
                .session(.loggedIn(email: GlueHarness.email, server: performer.accounts.backend.server)))
            await Self.drive(start, &next)
            #expect(next.state.screen == .form)
            #expect(next.state.form?.offlineEntry == entry)
            #expect(next.state.form?.cardFields.title == "Edited offline")
            #expect(world.server.statistics.count("PUT /card/{cardId}") == puts, "never sent again by itself")
            await performer.accounts.settleBackgroundReads()
        }
    }
}
