/// Adapts each attempt of a request and decides whether a failed attempt is retried — what
/// Moya's plugins cannot do. Typical use: add a bearer token, refresh it after a 401, retry once.
///
/// ```swift
/// struct AuthInterceptor: Interceptor {
///     let session: Session   // an actor holding tokens
///     func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
///         guard let scheme = target.authorizationType else { return request }   // login, refresh
///         var request = request
///         request.headers["Authorization"] = "\(scheme.scheme) \(try await session.accessToken())"
///         return request
///     }
///     func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError,
///                attempt: Int) async throws -> RetryDecision {
///         guard attempt == 1, error.statusCode == 401, target.authorizationType != nil else { return .doNotRetry }
///         try await session.refresh()      // its error reaches the caller as .interceptor(error)
///         return .retry
///     }
/// }
/// ```
///
/// Every attempt starts again from the prepared request (after plugins' `prepare`) and runs every
/// interceptor's ``adapt(_:for:)`` in order, so a retry picks up a fresh token. The first `adapt`
/// runs only once the provider's ``Admission`` has admitted the request, and the request keeps
/// its slot through `retry`; an interceptor repairing something every request needs (a token
/// refresh after a 401) can shut the host's gate meanwhile with
/// ``Admission/hold(hostOf:isolation:during:)``, so requests not yet admitted wait for the repair. After a failed
/// attempt the interceptors' ``retry(_:for:dueTo:attempt:)`` are asked in order; the first
/// answer other than ``RetryDecision/doNotRetry`` wins. Cancellation is never retried, and a
/// provider caps attempts (see ``Provider/maximumRetries``). When the last attempt is done, each
/// interceptor's ``complete(_:for:target:)`` sees the result in order and may change it.
public protocol Interceptor: Sendable {
    /// The request to send for this attempt. Default: unchanged.
    ///
    /// - Throws: any error, which fails the request as ``NetworkError/interceptor(_:)``
    ///   (a `CancellationError` as ``NetworkError/cancelled``).
    func adapt(_ request: Request, for target: any TargetType) async throws -> Request

    /// Whether to retry after attempt number `attempt` (from 1) failed with `error`.
    /// A 401 arrives as ``NetworkError/unacceptableStatus(_:)`` with the full response, body
    /// included. Default: ``RetryDecision/doNotRetry``.
    ///
    /// - Throws: any error, which ends the request as ``NetworkError/interceptor(_:)``.
    func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
        -> RetryDecision

    /// The result the caller gets, once the request's last attempt is done (`request` is that
    /// attempt, as adapted), before the plugins' `process`. An interceptor whose `adapt` let a
    /// request go out on something not yet settled — a token whose save is still running — waits
    /// for it here and may turn the result into a failure. Called after the request has given its
    /// admission slot back, so waiting here holds up nobody in line. Default: `result` unchanged.
    func complete(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) async
        -> Result<Response, NetworkError>
}

extension Interceptor {
    /// Returns the request unchanged.
    public func adapt(_ request: Request, for target: any TargetType) async throws -> Request { request }
    /// Never retries.
    public func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int)
        async throws -> RetryDecision
    { .doNotRetry }
    /// Returns `result` unchanged.
    public func complete(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) async
        -> Result<Response, NetworkError>
    { result }
}

/// What to do after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Give up: the failure is the result.
    case doNotRetry
    /// Send the request again now.
    case retry
    /// Send it again after waiting this long on the provider's clock.
    case retryAfter(Duration)
}

/// Sets `Authorization: <scheme> <token>` on every target whose
/// ``TargetType/authorizationType`` is not `nil`, replacing any value already there.
public struct AccessTokenInterceptor: Interceptor {
    private let token: @Sendable () async throws -> String

    /// An interceptor that asks `token` for the current token on every attempt.
    public init(token: @escaping @Sendable () async throws -> String) {
        self.token = token
    }

    /// Adds the `Authorization` header when the target wants one.
    public func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard let type = target.authorizationType else { return request }
        var request = request
        request.headers["Authorization"] = "\(type.scheme) \(try await token())"
        return request
    }
}
