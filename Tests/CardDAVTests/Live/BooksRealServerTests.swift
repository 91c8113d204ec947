import CardBackend
import CardCache
import CardMockServer
import CardModels
import CardProviders
import CardWalletLive
import CardWalletUI
import Foundation
import Logging
import Networking
import Secrets
import TestSupport
import Testing
import TokenStore

/// Moves, copies and merges between the books of two Radicale users (issue 40), as two stored
/// accounts: CardDAV to CardDAV is lossless (every property kept, checked in the vCard the server
/// holds), a copy interrupted after its create is carried on by the replay into one card, and a
/// merge keeps both cards' properties that the wallet does not model.
@Suite(.serialized) struct BooksRealServerTests {
    static let vcard = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:ada-lovelace-7f3e\r
        FN:Ada Lovelace\r
        N:Lovelace;Ada;;;\r
        EMAIL:ada@analytical.example\r
        TEL;TYPE=FAX:+44 20 7946 0009\r
        X-ANALYTICAL-ENGINE:note G\r
        END:VCARD\r

        """

    static let other = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:ada-at-bobs-11aa\r
        FN:Ada Lovelace\r
        N:Lovelace;Ada;;;\r
        TITLE:Countess of Lovelace\r
        EMAIL:ada@analytical.example\r
        X-BOBS-NOTE:met in London\r
        END:VCARD\r

        """

    @Test func moveCopyAndMergeBetweenTwoRadicaleUsersLoseNothing() async throws {
        try await DAVServerProcess.with(.radicale, otherUsers: ["bob"]) { server in
            try await LiveTransport.withTransport { live in
                let folder = try TemporaryFolder("dav-books")
                defer { folder.remove() }
                let store = TokenStore(path: folder.path("state/tokens.json"))
                let secrets = AccountSecrets(keyring: MemorySecretStore(), tokenStore: store, environment: [:])
                let context = ProviderContext(
                    tokenStore: store, transport: live, plugins: [], logger: Logger(label: "test.books"),
                    settings: ProviderSettings(), password: { try await secrets.password(for: $0) })
                let directory = AccountDirectory(
                    providers: Providers.standard, context: context, secrets: secrets, book: nil)
                let accounts = WalletAccounts(
                    directory: directory, account: nil, backend: try directory.backend(at: server.root),
                    cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                    logger: Logger(label: "test.books"), home: server.root)
                _ = try await accounts.logIn(LoginRequest(user: server.user, password: server.password))
                _ = try await accounts.logIn(LoginRequest(user: "bob", password: server.password))

                let shelf = Bookshelf(accounts: accounts)
                let books = await shelf.books(refresh: true)
                let alice = try #require(books.first { $0.user == server.user })
                let bob = try #require(books.first { $0.user == "bob" })
                let alices = try await shelf.wallet(for: alice)
                let bobs = try await shelf.wallet(for: bob)
                let aliceStore = try #require(alices.backend as? any VCardStore)
                _ = try await aliceStore.create(vcard: Self.vcard, key: IdempotencyKey())
                _ = await shelf.listings(.online, books: [alice, bob])

                // A move: the vCard the server holds in bob's book keeps every property.
                let ada = try #require(try await shelf.card(named: "Ada", among: [alice, bob], current: nil))
                #expect(ada.book == alice)
                #expect(try await shelf.transfer(.move, ada, to: bob).state == .done)
                #expect(try await alices.list(.online).value.isEmpty)
                let moved = try #require(try await bobs.list(.online).value.first)
                let held = try #require(try await bobs.backend.card(id: moved.id).source)
                for line in ["UID:ada-lovelace-7f3e", "TEL;TYPE=FAX:+44 20 7946 0009", "X-ANALYTICAL-ENGINE:note G"] {
                    #expect(held.contains(line), "\(line) kept in \(held)")
                }

                // A copy back, killed after the create: the replay finds the card it made.
                let whole = try await bobs.backend.card(id: moved.id)
                let order = TransferOrder(
                    mode: .copy, sourceID: whole.id, sourceRevision: whole.revision, target: alice.transferTarget,
                    card: try await bobs.transferCard(of: whole))
                _ = try await aliceStore.create(vcard: try #require(order.card.vcard), key: order.key)
                _ = try #require(bobs.cache).enqueue(.transfer(order))
                _ = await shelf.replayEveryOutbox()
                #expect(try #require(bobs.cache).pendingChanges().isEmpty)
                let refused = try #require(bobs.cache).outbox().filter { $0.state == .failed }
                #expect(refused.isEmpty, "the replay was refused: \(refused.map(\.lastError))")
                #expect(try await alices.list(.online).value.count == 1, "one copy, never two")
                #expect(try await bobs.list(.online).value.count == 1)

                // A merge: bob's other card of Ada into alice's; both cards' properties kept.
                let bobsStore = try #require(bobs.backend as? any VCardStore)
                _ = try await bobsStore.create(vcard: Self.other, key: IdempotencyKey())
                let bobsCards = try await bobs.list(.online).value
                #expect(bobsCards.count == 2)
                let alicesCard = try #require(try await alices.list(.online).value.first)
                let left = try await alices.backend.card(id: alicesCard.id)
                let rightID = try #require(
                    try await bobsCards.asyncFirst {
                        try await bobs.backend.card(id: $0.id).source?.contains("X-BOBS") == true
                    }
                ).id
                let right = try await bobs.backend.card(id: rightID)
                let plan = CardMergePlan(left: left, right: right)
                #expect(plan.fields.title == "Countess of Lovelace")
                let outcome = try await shelf.merge(
                    keep: NamedCard(book: alice, summary: left.summary), at: left.revision,
                    drop: NamedCard(book: bob, summary: right.summary), merged: try CardMerger.merged(plan))
                #expect(outcome.state == .done)
                #expect(try await bobs.list(.online).value.count == 1, "the merged card is gone from bob's book")
                let kept = try await alices.list(.online).value
                #expect(kept.count == 1)
                let keptCard = try #require(kept.first)
                let mergedText = try #require(try await alices.backend.card(id: keptCard.id).source)
                for line in [
                    "UID:ada-lovelace-7f3e", "TEL;TYPE=FAX:+44 20 7946 0009", "X-ANALYTICAL-ENGINE:note G",
                    "X-BOBS-NOTE:met in London", "TITLE:Countess of Lovelace",
                ] {
                    #expect(mergedText.contains(line), "\(line) kept in \(mergedText)")
                }
            }
        }
    }

    @Test func aMoveFromCardDAVToTheCardAPIAndBackKeepsWhatTheWalletDoesNotModel() async throws {
        let mock = try await MockServer.start(configuration: .testing, clock: ManualWallClock())
        do {
            try await DAVServerProcess.with(.radicale) { server in
                try await LiveTransport.withTransport { live in
                    let folder = try TemporaryFolder("dav-api-books")
                    defer { folder.remove() }
                    let store = TokenStore(path: folder.path("state/tokens.json"))
                    let secrets = AccountSecrets(keyring: MemorySecretStore(), tokenStore: store, environment: [:])
                    let context = ProviderContext(
                        tokenStore: store, transport: live, plugins: [], logger: Logger(label: "test.books"),
                        settings: ProviderSettings(), password: { try await secrets.password(for: $0) })
                    let directory = AccountDirectory(
                        providers: Providers.standard, context: context, secrets: secrets, book: nil)
                    let accounts = WalletAccounts(
                        directory: directory, account: nil, backend: try directory.backend(at: server.root),
                        cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                        logger: Logger(label: "test.books"), home: server.root)
                    _ = try await accounts.logIn(LoginRequest(user: server.user, password: server.password))
                    _ = try await accounts.logIn(
                        LoginRequest(
                            server: mock.baseURLString, user: "minji@cardwallet.dev", password: "minji1234",
                            name: "cards"))

                    let shelf = Bookshelf(accounts: accounts)
                    let books = await shelf.books(refresh: true)
                    let alice = try #require(books.first { $0.user == server.user })
                    let api = try #require(books.first { $0.account == "cards" })
                    let alices = try await shelf.wallet(for: alice)
                    let apis = try await shelf.wallet(for: api)
                    _ = try await #require(alices.backend as? any VCardStore).create(
                        vcard: Self.vcard, key: IdempotencyKey())
                    _ = await shelf.listings(.online, books: [alice, api])
                    let before = try await apis.list(.online).value.count

                    // CardDAV to the card API: the properties it does not model go as kept lines.
                    let ada = try #require(try await shelf.card(named: "Ada", among: [alice, api], current: nil))
                    #expect(try await shelf.transfer(.move, ada, to: api).state == .done)
                    #expect(try await alices.list(.online).value.isEmpty)
                    let there = try await apis.list(.online).value
                    #expect(there.count == before + 1)
                    let onAPI = try #require(there.first { $0.name == "Ada Lovelace" })
                    let whole = try await apis.backend.card(id: onAPI.id)
                    #expect(whole.fields.email == "ada@analytical.example")
                    #expect(whole.fields.vcardProperties.contains("X-ANALYTICAL-ENGINE:note G"))

                    // And back: the vCard on Radicale has them again.
                    let back = try #require(try await shelf.card(named: onAPI.id, among: [alice, api], current: nil))
                    #expect(try await shelf.transfer(.move, back, to: alice).state == .done)
                    #expect(try await apis.list(.online).value.count == before)
                    let returned = try #require(try await alices.list(.online).value.first)
                    let text = try #require(try await alices.backend.card(id: returned.id).source)
                    #expect(text.contains("X-ANALYTICAL-ENGINE:note G"), "\(text)")
                    #expect(text.contains("EMAIL"), "\(text)")
                }
            }
        } catch {
            await mock.stop()
            throw error
        }
        await mock.stop()
    }
}

extension Sequence where Element: Sendable {
    /// The first element for which `predicate` holds, asked in order.
    fileprivate func asyncFirst(_ predicate: (Element) async throws -> Bool) async rethrows -> Element? {
        for element in self where try await predicate(element) { return element }
        return nil
    }
}
