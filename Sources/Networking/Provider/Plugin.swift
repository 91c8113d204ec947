/// Observes and shapes every request a ``Provider`` makes; implement only the hooks you need.
///
/// The provider calls the hooks in this order, each plugin in the order given to the provider:
///
/// 1. ``prepare(_:target:)`` once — may change the request (before any interceptor);
/// 2. the request waits for a slot of the provider's ``Admission`` (at most K per host at once);
/// 3. for every attempt: interceptors adapt the request, then ``willSend(_:target:)``, the
///    transport call and validation, then ``didReceive(_:for:target:)`` with the attempt's result;
///    if an interceptor asks for a retry, ``willRetry(_:dueTo:after:target:)`` and the next attempt;
/// 4. the slot goes to the next request in line, then ``process(_:for:target:)`` once with the
///    final result — may change it.
///
/// If an interceptor's `adapt` throws, or the request is cancelled while it waits for admission,
/// that attempt's `willSend` is skipped but `didReceive` still gets the failure. Stubbed requests run exactly the same hooks; a request that joins an
/// identical in-flight `GET` (see `trackInflights`) runs none. A request that cannot be built
/// (bad URL, unencodable body) fails before any hook.
public protocol Plugin: Sendable {
    /// Changes the request before it is adapted and sent. Default: unchanged.
    func prepare(_ request: Request, target: any TargetType) -> Request
    /// Called right before each attempt is handed to the transport.
    func willSend(_ request: Request, target: any TargetType)
    /// Called with each attempt's result (after validation), `request` being what was sent.
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType)
    /// Called when an interceptor decided to retry `request` after `error`, before waiting `delay`.
    func willRetry(_ request: Request, dueTo error: NetworkError, after delay: Duration, target: any TargetType)
    /// Changes the final result before the caller sees it. Default: unchanged.
    func process(
        _ result: Result<Response, NetworkError>,
        for request: Request,
        target: any TargetType
    ) -> Result<Response, NetworkError>
}

extension Plugin {
    /// Returns the request unchanged.
    public func prepare(_ request: Request, target: any TargetType) -> Request { request }
    /// Does nothing.
    public func willSend(_ request: Request, target: any TargetType) {}
    /// Does nothing.
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {}
    /// Does nothing.
    public func willRetry(_ request: Request, dueTo error: NetworkError, after delay: Duration, target: any TargetType)
    {}
    /// Returns the result unchanged.
    public func process(
        _ result: Result<Response, NetworkError>,
        for request: Request,
        target: any TargetType
    ) -> Result<Response, NetworkError> { result }
}
