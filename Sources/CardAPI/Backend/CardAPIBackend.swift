import CardAPIContract
public import CardBackend
public import CardModels
import Foundation

/// The card API as a ``CardBackend/CardBackend``: the wallet above the seam reaches CardWallet's
/// card server through this, never through ``CardAPIClient`` itself.
///
/// Revisions are the API's integer versions (`CardRevision(7)`); a revision that is not one (a
/// card the API never gave) is sent as version 0, which no card has, so the server refuses the
/// change as a conflict rather than applying it blindly.
public struct CardAPIBackend: CardBackend {
    /// The client underneath.
    public let client: CardAPIClient

    /// Whole cards read at once by ``cards(ids:progress:)``: enough to hide latency, few enough
    /// to stay polite.
    public static let readConcurrency = 8

    /// The backend of `client`'s server and account.
    public init(client: CardAPIClient) {
        self.client = client
    }

    public var kind: BackendKind { .cardAPI }
    public var server: String { client.configuration.serverKey }
    public var maximumImageBytes: Int { client.configuration.maximumImageBytes }

    public var capabilities: BackendCapabilities {
        BackendCapabilities(
            keepsOrder: true, searchesOnServer: true, pagesListings: true, listsWholeCards: false,
            syncsByToken: false, storesImagesApart: true)
    }

    // MARK: Session

    /// Logs in with an email and a password; the token pair it earns is kept in the token file
    /// (the password is not: ``CardBackend/LoginOutcome/keepsPassword`` is `false`).
    public func logIn(_ credential: LoginCredential) async throws -> LoginOutcome {
        switch credential {
        case .password(let email, let password):
            let user = try await client.login(email: email, password: password)
            return LoginOutcome(
                account: SessionAccount(server: server, email: user.email, name: user.name, userID: user.id))
        case .bearer:
            throw CardAPIError.invalidRequest("The card API logs in with an email and a password, not OAuth.")
        }
    }

    public func logOut(everyAccount: Bool) async throws -> [LogoutReport] {
        let result: LogoutResult
        do {
            result = try await client.logout()
        } catch {
            guard everyAccount, case .multipleAccounts(_, let accounts) = error else { throw error }
            return try await logOut(accounts)
        }
        return [Self.report(result)]
    }

    /// Logs out each of `accounts` (several stored for the server, none chosen).
    private func logOut(_ accounts: [String]) async throws -> [LogoutReport] {
        // One call per account, in a function of its own: written inside the catch clause above,
        // the loop sent Swift 6.3.1's mandatory AllocBoxToStack pass into a loop without end.
        var reports: [LogoutReport] = []
        for account in accounts {
            reports.append(Self.report(try await client.client(forAccount: account).logout()))
        }
        return reports
    }

    private static func report(_ result: LogoutResult) -> LogoutReport {
        LogoutReport(account: result.account, serverTold: result.serverRevoked, serverProblem: result.serverProblem)
    }

    public func status() async -> SessionStatusReport { await client.status() }

    public var sessionState: SessionState { client.session.state }

    public func reportSession(to sink: (any SessionStateSink)?) { client.session.report(to: sink) }

    public var sessionWorkTimeout: Duration { client.configuration.session.authTimeout + .seconds(5) }

    public func finishSessionWork() async {
        guard case .refreshing = client.session.state else { return }
        let session = client.session
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await session.finishRefreshInFlight() }
            group.addTask { [sessionWorkTimeout] in try? await Task.sleep(for: sessionWorkTimeout) }
            await group.next()
            group.cancelAll()
        }
    }

    public func serverProblem() async -> (any BackendFailure)? { await client.serverProblem() }

    // MARK: Reads

    public func listing(_ request: ListingRequest) async throws -> CardListing {
        switch request {
        case .page(let offset, let limit):
            return .page(try await client.listCards(offset: offset, limit: limit))
        case .whole:
            return .whole(try await client.allCards(), cards: [], token: nil)
        }
    }

    public func search(_ query: String) async throws -> [CardSummary] {
        try await client.allCards(query: query)
    }

    public func card(id: String) async throws -> Card {
        try await client.card(id: id)
    }

    /// In batches of `APIWholeCards.maximumIDs` (`GET /cards/whole`); one by one from a server
    /// without that endpoint.
    public func cards(ids: [String], progress: (@Sendable (Int) -> Void)?) async throws -> [Card] {
        var found: [String: Card] = [:]
        var start = 0
        while start < ids.count {
            let batch = Array(ids[start..<min(start + APIWholeCards.maximumIDs, ids.count)])
            guard let cards = try await wholeCards(batch, first: start == 0) else {
                return try await cardsOneByOne(ids: ids, progress: progress)
            }
            for card in cards { found[card.id] = card }
            start += batch.count
            progress?(start)
        }
        return ids.compactMap { found[$0] }
    }

    /// One batch; `nil` when the server has no batch endpoint (the first batch's 404 E01).
    private func wholeCards(_ ids: [String], first: Bool) async throws -> [Card]? {
        do {
            return try await client.wholeCards(ids: ids).cards
        } catch {
            if first && error.isUnknownEndpoint { return nil }
            throw error
        }
    }

    private func cardsOneByOne(ids: [String], progress: (@Sendable (Int) -> Void)?) async throws -> [Card] {
        let client = client
        return try await ids.concurrentMap(concurrency: Self.readConcurrency, progress: progress) { id in
            do {
                return try await client.card(id: id)
            } catch let error as CardAPIError where error.isNotFound {
                return nil
            }
        }
    }

    public func image(of id: String) async throws -> CardImage {
        try await client.cardImage(id: id)
    }

    // MARK: Writes

    public func create(_ fields: CardFields, image: ImageUpload?, key: IdempotencyKey) async throws -> Card {
        try await client.createCard(fields, image: image, idempotencyKey: key)
    }

    public func update(_ base: Card, to fields: CardFields) async throws -> Card {
        try await client.updateCard(id: base.id, fields: fields, version: Self.version(base.revision))
    }

    public func delete(id: String, revision: CardRevision?) async throws {
        try await client.deleteCard(id: id, version: revision.map(Self.version))
    }

    public func setImage(of base: Card, to image: ImageUpload?) async throws -> Card {
        let version = Self.version(base.revision)
        guard let image else { return try await client.removeImage(id: base.id, version: version) }
        return try await client.replaceImage(id: base.id, version: version, image: image)
    }

    public func reorder(_ ids: [String]) async throws -> [String] {
        try await client.reorderCards(ids)
    }

    /// The API version of `revision`; 0, which no card has, when it is not one.
    static func version(_ revision: CardRevision) -> Int { revision.number ?? 0 }
}
