/// How a client turns what the networking core threw into its own error: the one switch over
/// ``NetworkError`` and ``TransportFailure/Kind``, shared, so each client says only what each case
/// means to it. The card API's `ResponseJudge` and CardDAV's `DAVErrors` both conform.
///
/// ```swift
/// struct MyErrors: NetworkErrorTranslator {
///     func status(_ response: Response) -> MyError { .server(response.statusCode) }
///     …
/// }
/// let error = MyErrors().translate(networkError)
/// ```
public protocol NetworkErrorTranslator {
    /// The client's error.
    associatedtype Failure: Error

    /// An answer whose status the caller did not accept.
    func status(_ response: Response) -> Failure
    /// No connection could be made (`reason` says why: refused, unknown host, timed out).
    func cannotConnect(_ failure: TransportFailure, reason: String) -> Failure
    /// The server took the connection but did not answer in time.
    func timedOut(_ failure: TransportFailure) -> Failure
    /// The exchange broke off (the connection lost, another transport error).
    func connectionFailed(_ failure: TransportFailure) -> Failure
    /// The answer was larger than the client reads. The same as ``connectionFailed(_:)`` unless
    /// the client says otherwise.
    func tooLarge(_ failure: TransportFailure) -> Failure
    /// A success whose body could not be decoded as expected.
    func decoding(_ failure: DecodingFailure) -> Failure
    /// What an interceptor threw (the client's own error, a cancellation, anything else).
    func interceptor(_ error: any Error) -> Failure
    /// The request could not be built.
    func invalidRequest(_ message: String) -> Failure
    /// The call was cancelled.
    var cancelled: Failure { get }
}

extension NetworkErrorTranslator {
    public func tooLarge(_ failure: TransportFailure) -> Failure { connectionFailed(failure) }

    /// `error` as the client's own error.
    public func translate(_ error: NetworkError) -> Failure {
        switch error {
        case .unacceptableStatus(let response):
            return status(response)
        case .transport(let failure):
            switch failure.kind {
            case .cannotConnect: return cannotConnect(failure, reason: failure.reason)
            case .connectTimedOut: return cannotConnect(failure, reason: "the connection timed out")
            case .timedOut: return timedOut(failure)
            case .responseTooLarge: return tooLarge(failure)
            case .connectionLost, .other: return connectionFailed(failure)
            }
        case .decoding(let failure):
            return decoding(failure)
        case .interceptor(let underlying):
            return interceptor(underlying)
        case .invalidRequest(let message):
            return invalidRequest(message)
        case .cancelled:
            return cancelled
        }
    }
}
