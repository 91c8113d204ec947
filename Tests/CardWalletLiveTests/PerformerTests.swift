import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardWalletLive
@testable import CardWalletUI

/// The performer against the real mock server: every `Request` becomes the right call and
/// every answer the right `Response` or `UIFailure`.
@Suite(.serialized)
struct PerformerTests {
    @Test("Every request maps to its call and its answer to a Response")
    func requestsMapToCalls() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            let login = await performer.perform(
                .logIn(server: harness.url + "/", email: GlueHarness.email, password: GlueHarness.password))
            #expect(login == .success(.loggedIn(email: GlueHarness.email, server: harness.url)))

            let page = try await performer.perform(.loadCards(offset: 0, limit: 5, query: nil)).get()
            guard case .cards(let cards) = page else {
                Issue.record("not a page: \(page)")
                return
            }
            #expect(cards.total == 12)
            #expect(cards.cards.map(\.id) == ["demo-01", "demo-02", "demo-03", "demo-04", "demo-05"])

            let matching = try await performer.perform(.loadCards(offset: 0, limit: 50, query: "민준")).get()
            guard case .cards(let found) = matching else {
                Issue.record("not a page: \(matching)")
                return
            }
            #expect(found.cards.map(\.name) == ["김민준"])

            let one = try await performer.perform(.loadCard(id: "demo-02")).get()
            guard case .card(let card) = one else {
                Issue.record("not a card: \(one)")
                return
            }
            #expect(card.fields.name == "김민준")

            let imagePath = harness.folder.path("face.png")
            try ImageFixtures.png.write(to: URL(fileURLWithPath: imagePath))
            let fields = CardFields(name: "Grace Hopper", company: "Navy", email: "grace@navy.example")
            let created = try await performer.perform(.createCard(fields, imagePath: imagePath)).get()
            guard case .card(let new) = created else {
                Issue.record("not a card: \(created)")
                return
            }
            #expect(new.fields.name == "Grace Hopper")
            #expect(new.image?.contentType == "image/png")
            #expect(new.revision == CardRevision(1))

            var edited = fields
            edited.title = "Rear Admiral"
            let updated = try await performer.perform(
                .updateCard(id: new.id, fields: edited, revision: CardRevision(1))
            ).get()
            guard case .card(let saved) = updated else {
                Issue.record("not a card: \(updated)")
                return
            }
            #expect(saved.fields.title == "Rear Admiral")
            #expect(saved.revision == CardRevision(2))

            let order = ["demo-02", "demo-01"] + (3...12).map { String(format: "demo-%02d", $0) } + [new.id]
            #expect(await performer.perform(.reorderCards(order: order)) == .success(.reordered))
            let first = try await performer.perform(.loadCards(offset: 0, limit: 1, query: nil)).get()
            #expect((first.page?.cards.first?.id) == "demo-02")

            // A delete reads the card first, so it can be undone: restoring makes it again.
            let deleted = await performer.perform(.deleteCard(id: new.id))
            guard case .success(.deleted(let id, let backup?)) = deleted else {
                Issue.record("no backup: \(deleted)")
                return
            }
            #expect(id == new.id)
            #expect(backup.card.fields == saved.fields)
            let again = await performer.perform(.deleteCard(id: new.id))
            #expect(again.failureKind == .notFound)
            guard case .success(.card(let restored)) = await performer.perform(.restoreCard(backup)) else {
                Issue.record("not restored")
                return
            }
            #expect(restored.fields == saved.fields)
            #expect(restored.id != new.id)

            #expect(await performer.perform(.logOut) == .success(.loggedOut))
            #expect(try harness.store.items().isEmpty)
        }
    }

    @Test("A stale edit fails with E07 carrying the server's version of the card")
    func conflictCarriesServerVersion() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            guard case .card(let card) = try await performer.perform(.loadCard(id: "demo-03")).get() else {
                Issue.record("no card")
                return
            }
            var theirs = card.fields
            theirs.title = "Art Director"
            _ = try await performer.perform(.updateCard(id: card.id, fields: theirs, revision: card.revision)).get()

            var mine = card.fields
            mine.title = "Lead Designer"
            let result = await performer.perform(.updateCard(id: card.id, fields: mine, revision: card.revision))
            guard case .failure(let failure) = result, case .conflict(let current?) = failure.kind else {
                Issue.record("expected a conflict with the server's card, got \(result)")
                return
            }
            #expect(current.revision.number == (card.revision.number ?? 0) + 1)
            #expect(current.fields.title == "Art Director")
            #expect(failure.message.contains("E07"))
        }
    }

    @Test("Wrong password is loginFailed; an unknown card is notFound without a request")
    func loginFailedAndNotFound() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            let wrong = await performer.perform(
                .logIn(server: harness.url, email: GlueHarness.email, password: "nope-nope"))
            #expect(wrong.failureKind == .loginFailed)
            #expect(wrong.failureMessage?.contains("nope-nope") == false)

            try await harness.logIn(performer)
            #expect(await performer.perform(.loadCard(id: "demo-99")).failureKind == .notFound)
            let before = harness.server.statistics.total
            #expect(await performer.perform(.loadCard(id: "../cards")).failureKind == .notFound)
            #expect(harness.server.statistics.total == before)
        }
    }

    @Test("A deleted card with an image comes back with the same image bytes")
    func undoBringsTheImageBack() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            let path = harness.folder.path("ada.png")
            try ImageFixtures.png.write(to: URL(fileURLWithPath: path))
            guard
                case .success(.card(let card)) = await performer.perform(
                    .createCard(CardFields(name: "Ada"), imagePath: path))
            else {
                Issue.record("not created")
                return
            }
            guard case .success(.deleted(_, let backup?)) = await performer.perform(.deleteCard(id: card.id)) else {
                Issue.record("no backup")
                return
            }
            #expect(backup.image == ImageFixtures.png)
            guard case .success(.card(let restored)) = await performer.perform(.restoreCard(backup)) else {
                Issue.record("not restored")
                return
            }
            #expect(restored.hasImage)
            let image = try await performer.client.cardImage(id: restored.id)
            #expect(image.data == ImageFixtures.png)
        }
    }

    @Test("An image that cannot be read fails on the image field, nothing sent")
    func unreadableImageIsAFieldProblem() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            let before = harness.server.statistics.total
            let missing = await performer.perform(
                .createCard(CardFields(name: "X"), imagePath: harness.folder.path("nowhere.png")))
            #expect(missing.failureKind == .localImage(problem: "there is no such file"))

            let textPath = harness.folder.path("notes.png")
            try Data("just text".utf8).write(to: URL(fileURLWithPath: textPath))
            let notImage = await performer.perform(.createCard(CardFields(name: "X"), imagePath: textPath))
            #expect(
                notImage.failureKind
                    == .localImage(problem: "it is not a PNG or JPEG image (its first bytes say so, whatever its name)")
            )
            #expect(harness.server.statistics.total == before)
        }
    }

    @Test("A blank image path creates a card without an image; ~ is the home folder")
    func imagePaths() {
        #expect(CallPerformer.imagePath(nil) == nil)
        #expect(CallPerformer.imagePath("   ") == nil)
        #expect(CallPerformer.imagePath(" /tmp/a.png ") == "/tmp/a.png")
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        if !home.isEmpty {
            #expect(CallPerformer.imagePath("~/a.png") == home + "/a.png")
        }
    }

    @Test("A server that is not there is cannotConnect with its URL")
    func cannotConnect() async throws {
        try await GlueHarness.with { harness in
            // A port bound without listening: refused, and never handed to another test's server.
            let url = "http://127.0.0.1:\(try RefusingPort.reserve())/v1"
            let performer = harness.performer()
            let result = await performer.perform(
                .logIn(server: url, email: GlueHarness.email, password: GlueHarness.password))
            #expect(result.failureKind == .cannotConnect(url: url))
            #expect(result.failureMessage?.contains("refused") == true)
        }
    }

    @Test("E06 is mustLogIn, and the session said expired before the call returned")
    func sessionEndIsSessionExpired() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            try await harness.server.revokeRefreshTokens(email: GlueHarness.email)
            try await harness.server.expireAccessTokens(email: GlueHarness.email)
            let result = await performer.perform(.loadCards(offset: 0, limit: 10, query: nil))
            #expect(result.failureKind == .mustLogIn)
            #expect(harness.statuses.last == .expired(email: GlueHarness.email, server: harness.url))
            // Fails fast now, without the network.
            let before = harness.server.statistics.total
            #expect(await performer.perform(.loadCard(id: "demo-01")).failureKind == .mustLogIn)
            #expect(harness.server.statistics.total == before)
        }
    }

    @Test("Logging in to another server switches the client and re-points the session sink")
    func switchingServers() async throws {
        try await GlueHarness.with { harness in
            let other = try await MockServer.start(configuration: .testing)
            defer { Task { await other.stop() } }
            let performer = harness.performer()
            try await harness.logIn(performer)
            let first = performer.client
            #expect(harness.statuses.last == .loggedIn(email: GlueHarness.email, server: harness.url))

            let login = await performer.perform(
                .logIn(server: other.baseURLString, email: "minji@cardwallet.dev", password: "minji1234"))
            #expect(login == .success(.loggedIn(email: "minji@cardwallet.dev", server: other.baseURLString)))
            #expect(performer.accounts.backend.server == other.baseURLString)
            #expect(harness.statuses.last == .loggedIn(email: "minji@cardwallet.dev", server: other.baseURLString))
            let page = try await performer.perform(.loadCards(offset: 0, limit: 10, query: nil)).get()
            #expect(page.page?.total == 3)
            #expect(other.statistics.count("GET /cards", status: 200) == 1)

            // Both sessions are kept in the one token file; the first server's client is not reused.
            #expect(try harness.store.items().count == 2)
            // The same logger saw the exchanges of both servers.
            let hosts = Set(harness.logger.recent().compactMap { URL(string: $0.url)?.port })
            #expect(hosts == [harness.server.port, other.port])
            // The first server's session no longer reports: its news is not the app's any more.
            let before = harness.statuses.count
            try await first.logout()
            #expect(harness.statuses.count == before)
            #expect(first.session.state == .loggedOut(server: harness.url))
            await other.stop()
        }
    }

    /// The login screen (or the session-expired dialog) as another account at the same server
    /// logs the first account out, as `cardwallet login` does: one account per server, so the
    /// scripting commands never find two and ask which one to use.
    @Test("Logging in as a second account at the same server keeps the first, and uses the second")
    func secondAccountAtTheSameServer() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            #expect(try harness.store.accounts(server: harness.url) == [GlueHarness.email])

            let login = await performer.perform(
                .logIn(server: harness.url, email: "minji@cardwallet.dev", password: "minji1234"))
            #expect(login == .success(.loggedIn(email: "minji@cardwallet.dev", server: harness.url)))

            // Accounts side by side: the first one's session is kept, here and on the server.
            #expect(try harness.store.accounts(server: harness.url) == [GlueHarness.email, "minji@cardwallet.dev"])
            #expect(harness.server.statistics.count("POST /auth/logout", status: 200) == 0)

            let page = try await performer.perform(.loadCards(offset: 0, limit: 10, query: nil)).get()
            #expect(page.page?.total == 3)
        }
    }

    /// A server address without `/v1` reaches no endpoint (404 E01): the login form says so
    /// under the server field, in words for people (no pointer into the project's docs).
    @Test("A server address without /v1 is explained on the login form")
    func serverAddressWithoutV1() async throws {
        try await GlueHarness.with { harness in
            let origin = harness.url.replacingOccurrences(of: "/v1", with: "")
            let result = await harness.performer().perform(
                .logIn(server: origin, email: GlueHarness.email, password: GlueHarness.password))
            #expect(result.failureKind == .wrongAddress)

            var state = AppState(server: origin, email: GlueHarness.email, password: GlueHarness.password)
            let effects = state.press(.enter)
            _ = state.answer(effects) { _ in result }
            let error = try #require(state.login.error)
            #expect(error.field == .server)
            #expect(state.login.focus == .server)
            #expect(error.message.contains("No card API at this address (404)"), "\(error.message)")
            #expect(error.message.contains("ends in /v1"))
            #expect(!error.message.contains("API.md"))
            #expect(try harness.store.items().isEmpty)
        }
    }
}

extension Result where Success == CallResult, Failure == UIFailure {
    var failureKind: UIFailure.Kind? {
        if case .failure(let failure) = self { return failure.kind }
        return nil
    }

    var failureMessage: String? {
        if case .failure(let failure) = self { return failure.message }
        return nil
    }
}

extension CallResult {
    var page: CardPage? {
        if case .cards(let page) = self { return page }
        return nil
    }
}
