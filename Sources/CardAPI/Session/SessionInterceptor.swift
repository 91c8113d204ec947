import CardModels
import Networking
import Synchronization

/// Puts the session's access token on every card request and decides retries:
///
/// - 401 E03/E04: refresh (or pick up the token that already replaced the rejected one) and
///   retry once;
/// - 401 E06: end the session (or pick up a pair another process stored) — the caller gets
///   ``CardAPIError/sessionExpired(server:account:)``;
/// - 429: wait `Retry-After` (at most ``SessionPolicy/maximumRetryAfter``) on the provider's
///   clock, then retry once.
///
/// While it gets the session ready for the retry after a 401 (a refresh, usually), it holds the
/// card provider's ``Admission`` gate for the server's host: requests not yet admitted wait for
/// the new token instead of going out with the one the server just rejected. So a storm of N
/// calls after a server-side expiry sends at most the admission's limit of stale tokens, not N.
///
/// It is also a plugin: its `didReceive` hook tells the session's loop guard how the server
/// judged each attempt's access token, and its `process` hook forgets a request's retry marks
/// when the request ends.
final class SessionInterceptor: Interceptor, Plugin {
    /// Which retries a request has used.
    struct Marks: OptionSet, Sendable {
        let rawValue: UInt8
        static let auth = Marks(rawValue: 1)
        static let rateLimit = Marks(rawValue: 2)
    }

    let session: CardSession
    let maximumRetryAfter: Duration
    /// The card provider's admission, whose gate a 401's recovery holds.
    let admission: Admission
    private let marks = Mutex<[RequestID: Marks]>([:])

    init(session: CardSession, maximumRetryAfter: Duration, admission: Admission) {
        self.session = session
        self.maximumRetryAfter = maximumRetryAfter
        self.admission = admission
    }

    /// Sets `Authorization: Bearer <access token>`, replacing any value.
    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard let scheme = target.authorizationType else { return request }
        var request = request
        let token: String
        if let cached = session.cachedAccessToken() {
            token = cached  // the hot path: no actor hop
        } else {
            token = try await session.accessToken()
        }
        request.headers["Authorization"] = "\(scheme.scheme) \(token)"
        return request
    }

    func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
        -> RetryDecision
    {
        guard case .unacceptableStatus(let response) = error else { return .doNotRetry }
        switch response.statusCode {
        case 401 where target.authorizationType != nil:
            let code = ServerError.code(in: response)
            let sent = request.headers["Authorization"].flatMap(Untrusted.bearerToken)
            switch code {
            case ErrorCode.accessTokenInvalid?, ErrorCode.accessTokenExpired?:
                guard mark(request, .auth) else { return .doNotRetry }
                try await admission.hold(hostOf: request.url) {
                    try await session.recover(from: .accessToken(sent))
                }
                return .retry
            case ErrorCode.refreshTokenExpired?:
                // Throws sessionExpired unless another process stored a newer pair.
                try await admission.hold(hostOf: request.url) {
                    try await session.recover(from: .session(sent))
                }
                return mark(request, .auth) ? .retry : .doNotRetry
            default:
                return .doNotRetry
            }
        case 429:
            let wait = ServerError.retryAfter(in: response) ?? .seconds(1)
            guard wait <= maximumRetryAfter, mark(request, .rateLimit) else { return .doNotRetry }
            return .retryAfter(wait)
        default:
            return .doNotRetry
        }
    }

    /// Tells the loop guard the server's verdict on the attempt's access token: a 2xx accepted
    /// it, a 401 E03/E04 rejected it. Only while a refreshed token awaits its first verdict.
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {
        guard target.authorizationType != nil, session.awaitsVerdict else { return }
        let response: Response
        switch result {
        case .success(let received): response = received
        case .failure(.unacceptableStatus(let received)): response = received
        case .failure: return
        }
        guard let token = request.headers["Authorization"].flatMap(Untrusted.bearerToken) else { return }
        if (200..<300).contains(response.statusCode) {
            session.serverAccepted(token)
        } else if response.statusCode == 401,
            let code = ServerError.code(in: response), code == .accessTokenInvalid || code == .accessTokenExpired
        {
            session.serverRejected(token)
        }
    }

    /// Forgets the request's retry marks once it is over.
    func process(
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
    var markedRequestCount: Int { marks.withLock { $0.count } }
}
