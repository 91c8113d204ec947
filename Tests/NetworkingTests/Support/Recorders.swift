import Foundation
import Networking
import Synchronization

/// A plugin that writes down every hook call, and can change the request and the result.
final class RecordingPlugin: Plugin {
    let name: String
    private let log: Mutex<[String]>
    private let shared: SharedLog?
    let addHeader: (name: String, value: String)?
    let replaceResult: Result<Response, NetworkError>?

    init(
        _ name: String, shared: SharedLog? = nil, addHeader: (name: String, value: String)? = nil,
        replaceResult: Result<Response, NetworkError>? = nil
    ) {
        self.name = name
        self.log = Mutex([])
        self.shared = shared
        self.addHeader = addHeader
        self.replaceResult = replaceResult
    }

    var calls: [String] { log.withLock { $0 } }

    private func note(_ call: String) {
        log.withLock { $0.append(call) }
        shared?.append("\(name).\(call)")
    }

    func prepare(_ request: Request, target: any TargetType) -> Request {
        note("prepare")
        guard let addHeader else { return request }
        var request = request
        request.headers[addHeader.name] = addHeader.value
        return request
    }

    func willSend(_ request: Request, target: any TargetType) { note("willSend#\(request.attempt)") }

    func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {
        switch result {
        case .success(let response): note("didReceive#\(request.attempt):\(response.statusCode)")
        case .failure(let error): note("didReceive#\(request.attempt):\(error.statusCode.map(String.init) ?? "error")")
        }
    }

    func willRetry(_ request: Request, dueTo error: NetworkError, after delay: Duration, target: any TargetType) {
        note("willRetry#\(request.attempt)")
    }

    func process(
        _ result: Result<Response, NetworkError>, for request: Request, target: any TargetType
    ) -> Result<Response, NetworkError> {
        note("process")
        return replaceResult ?? result
    }
}

/// An ordered log shared by several recorders.
final class SharedLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// An interceptor that sets a bearer token and retries a 401 once, as an auth interceptor would.
struct RetryOnceInterceptor: Interceptor {
    let log: SharedLog?
    let tokens: [String]
    let delay: Duration?

    init(log: SharedLog? = nil, tokens: [String] = ["stale", "fresh"], delay: Duration? = nil) {
        self.log = log
        self.tokens = tokens
        self.delay = delay
    }

    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        log?.append("interceptor.adapt#\(request.attempt)")
        guard let scheme = target.authorizationType else { return request }
        var request = request
        let token = tokens.count > 1 && request.attempt > 1 ? tokens[1] : tokens[0]
        request.headers["Authorization"] = "\(scheme.scheme) \(token)"
        return request
    }

    func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
        -> RetryDecision
    {
        log?.append("interceptor.retry#\(attempt)")
        guard attempt == 1, error.statusCode == 401 else { return .doNotRetry }
        return delay.map { .retryAfter($0) } ?? .retry
    }
}

/// A stateful fake server: 401 until the fresh token arrives.
actor FakeAuthServer {
    private(set) var seenTokens: [String] = []

    func handle(_ request: Request) -> StubResponse {
        let token = request.headers["Authorization"] ?? "none"
        seenTokens.append(token)
        if token == "Bearer fresh" { return .json(#"{"data":{"name":"Ada"}}"#) }
        return .json(#"{"errorCode":"E04","message":"access token expired"}"#, statusCode: 401)
    }
}
