import CardAPI
import CardModels
import Foundation
import Networking
import Synchronization
import TokenStore

/// Performs the UI's ``Request``s through a ``CardAPI/CardAPIClient`` and answers with a
/// ``Response`` or a ``UIFailure``: the `perform` closure of ``AppRunner``.
///
/// It holds the client of the server in use. Logging in to another server (the login screen's
/// server field) builds a new client through `makeClient`, which shares the transport, token
/// store and plugins, so the log pane keeps seeing every exchange. ``sessionStates()`` follows
/// whichever client is current.
///
/// ```swift
/// let performer = CardAPIPerformer(
///     configuration: CardAPIConfiguration(server: url), tokenStore: store,
///     transport: transport, plugins: [logger])
/// let runner = AppRunner(state: state, backend: terminal) { await performer.perform($0) }
/// ```
public final class CardAPIPerformer: Sendable {
    /// Builds a client for a server's base URL.
    public typealias ClientFactory = @Sendable (URL) -> CardAPIClient

    private struct Follower {
        let continuation: AsyncStream<SessionState>.Continuation
        var task: Task<Void, Never>?
    }

    private struct State {
        var client: CardAPIClient
        /// Bumped whenever the client changes, so a follower of the old one stops yielding.
        var generation = 0
        var followers: [UInt64: Follower] = [:]
        var nextFollower: UInt64 = 0
    }

    private let state: Mutex<State>
    private let makeClient: ClientFactory

    /// A performer starting with `client`.
    ///
    /// - Parameters:
    ///   - client: The client of the server the app starts with.
    ///   - makeClient: Builds the client of another server when the user logs in there; it
    ///     should share `client`'s transport, token store and plugins.
    public init(client: CardAPIClient, makeClient: @escaping ClientFactory) {
        self.state = Mutex(State(client: client))
        self.makeClient = makeClient
    }

    /// A performer whose clients all use `tokenStore`, `transport` and `plugins`, and the rules
    /// of `configuration` (the account it names applies to its own server only).
    public convenience init(
        configuration: CardAPIConfiguration, tokenStore: TokenStore, transport: any Transport,
        plugins: [any Plugin] = []
    ) {
        let first = CardAPIClient(
            configuration: configuration, tokenStore: tokenStore, transport: transport, plugins: plugins)
        self.init(client: first) { server in
            let other = CardAPIConfiguration(
                server: server, session: configuration.session, maximumImageBytes: configuration.maximumImageBytes,
                requestTimeout: configuration.requestTimeout)
            return CardAPIClient(configuration: other, tokenStore: tokenStore, transport: transport, plugins: plugins)
        }
    }

    deinit {
        close()
    }

    /// The client in use.
    public var client: CardAPIClient { state.withLock { $0.client } }

    /// The client for `server`: the current one when it is for that server, else a new one,
    /// which becomes current (and ``sessionStates()`` follows it from now on).
    public func client(for server: URL) -> CardAPIClient {
        let key = TokenItem.normalizedServer(server.absoluteString)
        return state.withLock { state in
            if state.client.configuration.serverKey == key { return state.client }
            let client = makeClient(server)
            state.client = client
            state.generation += 1
            for id in Array(state.followers.keys) {
                state.followers[id]?.task?.cancel()
                state.followers[id]?.task = follow(client, generation: state.generation, follower: id)
            }
            return client
        }
    }

    /// Performs `request` on the current client (or, for a login, the client of its server).
    ///
    /// - Returns: What the server answered, or why it failed. A version conflict (E07) carries
    ///   the server's current card when it could be fetched, so the form can show both.
    public func perform(_ request: Request) async -> Result<Response, UIFailure> {
        let client = client
        do {
            return .success(try await send(request, on: client))
        } catch {
            if error.isConflict, case .updateCard(let id, _, _) = request {
                let current = try? await client.card(id: id)
                return .failure(UIFailure(error, current: current))
            }
            return .failure(UIFailure(error))
        }
    }

    /// The session states of the current client, then of each client it switches to. Every call
    /// returns a new stream that starts with the current state; it ends when its reader stops.
    public func sessionStates() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SessionState.self, bufferingPolicy: .bufferingNewest(64))
        let id = state.withLock { state -> UInt64 in
            state.nextFollower += 1
            let id = state.nextFollower
            state.followers[id] = Follower(continuation: continuation, task: nil)
            state.followers[id]?.task = follow(state.client, generation: state.generation, follower: id)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            let follower = self?.state.withLock { $0.followers.removeValue(forKey: id) }
            follower?.task?.cancel()
        }
        return stream
    }

    /// Stops following session states: every stream of ``sessionStates()`` ends.
    public func close() {
        let followers = state.withLock { state in
            let followers = state.followers
            state.followers = [:]
            return followers
        }
        for follower in followers.values {
            follower.task?.cancel()
            follower.continuation.finish()
        }
    }

    /// Forwards `client`'s states to a follower while `generation` is current.
    private func follow(_ client: CardAPIClient, generation: Int, follower id: UInt64) -> Task<Void, Never> {
        let states = client.states()
        return Task { [weak self] in
            for await sessionState in states {
                guard let self else { return }
                let current = self.state.withLock { state -> Bool in
                    guard state.generation == generation, let follower = state.followers[id] else { return false }
                    follower.continuation.yield(sessionState)
                    return true
                }
                if !current { return }
            }
        }
    }

    private func send(_ request: Request, on current: CardAPIClient) async throws(CardAPIError) -> Response {
        switch request {
        case .logIn(let server, let email, let password):
            let client = client(for: try CardAPIConfiguration.serverURL(server))
            let user = try await client.login(email: email, password: password)
            return .loggedIn(email: user.email, server: client.configuration.serverKey)
        case .logOut:
            let result = try await current.logout()
            // The tokens are gone either way; the UI says the server was not told.
            if let problem = result.serverProblem { throw problem }
            return .loggedOut
        case .loadCards(let offset, let limit, let query):
            return .cards(try await current.listCards(offset: offset, limit: limit, query: query))
        case .loadCard(let id):
            return .card(try await current.card(id: id))
        case .createCard(let fields, let imagePath):
            guard let path = Self.imagePath(imagePath) else { return .card(try await current.createCard(fields)) }
            return .card(try await current.createCard(fields, imageAt: URL(fileURLWithPath: path)))
        case .updateCard(let id, let fields, let version):
            return .card(try await current.updateCard(id: id, fields: fields, version: version))
        case .deleteCard(let id):
            try await current.deleteCard(id: id)
            return .deleted(id: id)
        case .reorderCards(let order):
            try await current.reorderCards(order)
            return .reordered
        }
    }

    /// The file a person typed, with `~` expanded; `nil` when the field is blank.
    static func imagePath(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home + text.dropFirst()
        }
        return text
    }
}
