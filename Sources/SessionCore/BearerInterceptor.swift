import Foundation
public import Networking
import Synchronization

/// Which retries a request has used.
struct BearerRetryMarks: OptionSet, Sendable {
    let rawValue: UInt8
    static let auth = BearerRetryMarks(rawValue: 1)
    static let rateLimit = BearerRetryMarks(rawValue: 2)
}

/// Puts the session's access token on every request whose target asks for one, and decides
/// retries by what the ``TokenExchange`` reads in the answers (``BearerVerdict``):
///
/// - the access token was rejected (the card API's 401 E03/E04, OAuth's 401 with
///   `WWW-Authenticate: Bearer error="invalid_token"`): refresh (or pick up the token that
///   already replaced the rejected one) and retry once;
/// - the session was ended (the card API's 401 E06): end the session (or pick up a pair another
///   process stored) — the caller gets the failure's `sessionExpired`;
/// - rate limited (429): wait `Retry-After` (at most the given maximum) on the provider's
///   clock, then retry once.
///
/// While it gets the session ready for the retry after a rejection (a refresh, usually), it holds
/// the provider's ``Networking/Admission`` gate for the server's host: requests not yet admitted
/// wait for the new token instead of going out with the one the server just rejected. So a storm
/// of N calls after a server-side expiry sends at most the admission's limit of stale tokens,
/// not N.
///
/// A refresh hands out the new access token before the pair is saved to the token file (see
/// ``PendingSave``): a request that takes the token while the save runs is a *dependent* of it.
/// A read (`GET`, `HEAD`) is sent at once and its answer waits in ``complete(_:for:target:)``
/// for the save; any other request waits for the save before it is sent. A failed save fails
/// every dependent with the store's error.
///
/// It is also a plugin: its `didReceive` hook tells the session's loop guard how the server
/// judged each attempt's access token, and its `process` hook forgets a request's retry marks
/// when the request ends.
public final class BearerInterceptor<Exchange: TokenExchange>: Interceptor, Plugin {
    typealias Marks = BearerRetryMarks

    /// The session whose tokens go on the requests.
    public let session: TokenSession<Exchange>
    /// The longest `Retry-After` waited out before one retry; longer fails at once.
    public let maximumRetryAfter: Duration
    /// The provider's admission, whose gate a rejection's recovery holds.
    public let admission: Admission
    /// Where a request may carry the token at all, asked before each attempt: the origin rule
    /// of the server the tokens are for (CardDAV's `CredentialScope`); `nil` admits every target
    /// that asks for a token (the card API's requests all go to its base URL).
    let admit: (@Sendable (Request) throws -> Void)?
    private let marks = Mutex<[RequestID: Marks]>([:])
    /// Reads sent with a token whose pair was still being saved, and that save.
    private let dependents = Mutex<[RequestID: PendingSave<Exchange.Failure>]>([:])

    /// An interceptor for `session`'s requests.
    ///
    /// - Parameters:
    ///   - session: the tokens.
    ///   - maximumRetryAfter: the longest `Retry-After` waited out before one retry.
    ///   - admission: the admission of the provider this interceptor is on.
    ///   - admit: checks that a request may carry the token (throws to refuse it unsent).
    public init(
        session: TokenSession<Exchange>, maximumRetryAfter: Duration, admission: Admission,
        admit: (@Sendable (Request) throws -> Void)? = nil
    ) {
        self.session = session
        self.maximumRetryAfter = maximumRetryAfter
        self.admission = admission
        self.admit = admit
    }

    /// Sets `Authorization: Bearer <access token>`, replacing any value. If the token's pair is
    /// still being saved, the request becomes a dependent of that save (see the type's notes).
    public func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard let scheme = target.authorizationType else { return request }
        try admit?(request)
        var request = request
        let token: TokenSession<Exchange>.CurrentToken
        if let cached = session.cachedAccessToken() {
            token = cached  // the hot path: no actor hop
        } else {
            token = try await session.accessToken()
        }
        if let save = token.save { try await depend(request, on: save) }
        request.headers["Authorization"] = "\(scheme.scheme) \(token.accessToken)"
        return request
    }

    public func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int)
        async throws -> RetryDecision
    {
        guard case .unacceptableStatus(let response) = error else { return .doNotRetry }
        switch session.exchange.verdict(on: response) {
        case .accessRejected where target.authorizationType != nil:
            let sent = request.headers["Authorization"].flatMap(Self.bearerToken)
            guard mark(request, .auth) else { return .doNotRetry }
            // The hold ends when the new token is known, not when it is saved: the requests in
            // line go out with it at once.
            let save = try await admission.hold(hostOf: request.url) {
                try await session.recover(from: .accessToken(sent))
            }
            if let save { try await depend(request, on: save) }
            return .retry
        case .sessionRejected where target.authorizationType != nil:
            let sent = request.headers["Authorization"].flatMap(Self.bearerToken)
            // Throws sessionExpired unless another process stored a newer pair.
            let save = try await admission.hold(hostOf: request.url) {
                try await session.recover(from: .session(sent))
            }
            guard mark(request, .auth) else { return .doNotRetry }
            if let save { try await depend(request, on: save) }
            return .retry
        case .rateLimited(let retryAfter):
            let wait = retryAfter ?? .seconds(1)
            guard wait <= maximumRetryAfter, mark(request, .rateLimit) else { return .doNotRetry }
            return .retryAfter(wait)
        default:
            return .doNotRetry
        }
    }

    /// Tells the loop guard the server's verdict on the attempt's access token: a 2xx accepted
    /// it, a rejection rejected it. Only while a refreshed token awaits its first verdict.
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {
        guard target.authorizationType != nil, session.awaitsVerdict else { return }
        let response: Response
        switch result {
        case .success(let received): response = received
        case .failure(.unacceptableStatus(let received)): response = received
        case .failure: return
        }
        guard let token = request.headers["Authorization"].flatMap(Self.bearerToken) else { return }
        if (200..<300).contains(response.statusCode) {
            session.serverAccepted(token)
        } else if session.exchange.verdict(on: response) == .accessRejected {
            session.serverRejected(token)
        }
    }

    /// Holds a dependent read's answer until the save of its token's pair is done; a failed
    /// save fails it with the store's error (what it would have got waiting for the refresh).
    public func complete(
        _ result: Result<Response, NetworkError>, for request: Request, target: any TargetType
    ) async -> Result<Response, NetworkError> {
        let save = dependents.withLock { dependents in dependents.isEmpty ? nil : dependents[request.id] }
        guard let save else { return result }
        defer { dependents.withLock { $0[request.id] = nil } }
        do throws(Exchange.Failure) {
            try await save.wait()
            return result
        } catch {
            return .failure(error.isCancellation ? .cancelled : .interceptor(error))
        }
    }

    /// Makes `request` a dependent of `save`: a read is recorded (its answer waits in
    /// ``complete(_:for:target:)``), anything else waits here until the pair is on disk.
    ///
    /// - Throws: the store's error if the save failed (or fails while a change waits).
    private func depend(_ request: Request, on save: PendingSave<Exchange.Failure>) async throws(Exchange.Failure) {
        guard request.method == .get || request.method == .head else {
            try await save.wait()
            return
        }
        if case .failure(let error)? = save.outcome.result { throw error }
        dependents.withLock { $0[request.id] = save }
    }

    /// How many reads wait on a save (for tests: none once every request is over).
    package var dependentCount: Int { dependents.withLock { $0.count } }

    /// Forgets the request's retry marks once it is over.
    public func process(
        _ result: Result<Response, NetworkError>, for request: Request, target: any TargetType
    ) -> Result<Response, NetworkError> {
        marks.withLock { marks in
            if !marks.isEmpty { marks[request.id] = nil }
        }
        return result
    }

    /// Records that `request` used a retry of `kind`; `false` if it already had.
    private func mark(_ request: Request, _ kind: Marks) -> Bool {
        marks.withLock { marks in
            let used = marks[request.id, default: []]
            guard !used.contains(kind) else { return false }
            marks[request.id] = used.union(kind)
            return true
        }
    }

    /// How many requests have retry marks (for tests: none once every request is over).
    package var markedRequestCount: Int { marks.withLock { $0.count } }

    /// The token in `Bearer <token>`, or `nil` when the value has another form.
    public static func bearerToken(_ value: String) -> String? {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
