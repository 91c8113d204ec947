import Networking
public import SessionCore

/// Where a CardDAV client's bearer token comes from: an OAuth 2.0 session (refreshed before
/// expiry and after a 401 by the shared session machinery, ``SessionCore/TokenSession``), or a
/// token fixed for one login's discovery, before anything is stored.
///
/// Either way the token goes only where the client's ``CredentialScope`` admits — the origin it
/// was issued for, or another `https` host of its registrable domain (the person is told) — over
/// `https` or to this computer, checked before each attempt: the rule passwords follow.
public struct BearerSource: Sendable {
    /// Makes the interceptor (and plugin) of one client's provider, given its admission and the
    /// check each request must pass before it carries the token.
    let make: @Sendable (Admission, @escaping @Sendable (Request) throws -> Void) -> any Interceptor & Plugin

    /// The tokens of `session`.
    ///
    /// - Parameter maximumRetryAfter: the longest `Retry-After` the session's interceptor waits
    ///   out (the 429s it is told of; CardDAV's back-off handles the rest).
    public static func session<Exchange: TokenExchange>(
        _ session: TokenSession<Exchange>, maximumRetryAfter: Duration = .seconds(30)
    ) -> BearerSource {
        BearerSource { admission, admit in
            BearerInterceptor(
                session: session, maximumRetryAfter: maximumRetryAfter, admission: admission, admit: admit)
        }
    }

    /// A fixed token, nothing refreshed: a login's discovery with the access token it just got.
    public static func token(_ token: String) -> BearerSource {
        BearerSource { _, admit in FixedBearerInterceptor(token: token, admit: admit) }
    }
}

/// Puts a fixed bearer token on each attempt that passes `admit`.
struct FixedBearerInterceptor: Interceptor, Plugin {
    let token: String
    let admit: @Sendable (Request) throws -> Void

    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard target.authorizationType == .bearer else { return request }
        try admit(request)
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}
