import Foundation
import Networking

/// Puts the user's Basic credentials on each attempt of a DAV request, after checking where it
/// goes (``CredentialCheck``): only where the ``CredentialScope`` admits (the address's own
/// origin, or another `https` host of its registrable domain, which is recorded in the ledger for
/// the person to be told), and only over `https` or to this computer unless plain `http` was
/// allowed. A request anywhere else fails before it is sent.
struct BasicAuthInterceptor: Interceptor {
    let user: String
    let password: @Sendable () async throws -> String
    let check: CredentialCheck

    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard target.authorizationType == .basic else { return request }
        try check.admit(request)
        guard !user.contains(":") else {
            throw CardDAVError.invalidRequest("A CardDAV user name cannot contain “:”.")
        }
        let password: String
        do {
            password = try await self.password()
        } catch let error as CancellationError {
            throw error
        } catch {
            throw CardDAVError.credentialUnavailable(reason: String(describing: error))
        }
        var request = request
        request.headers["Authorization"] = Self.header(user: user, password: password)
        return request
    }

    /// `Basic base64(user:password)`.
    static func header(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The secrets a request's `Authorization` header holds in any form a message might quote:
    /// the header's value and its token (a bearer token, or Basic's base64), and for Basic the
    /// decoded `user:password` and the password alone.
    static func secrets(of request: Request) -> [String] {
        guard let value = request.headers["Authorization"] else { return [] }
        var secrets = [value]
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return secrets }
        secrets.append(String(parts[1]))
        guard parts[0].lowercased() == "basic" else { return secrets }
        if let decoded = Data(base64Encoded: String(parts[1])).map({ String(decoding: $0, as: UTF8.self) }) {
            secrets.append(decoded)
            if let colon = decoded.firstIndex(of: ":") {
                secrets.append(String(decoded[decoded.index(after: colon)...]))
            }
        }
        return secrets
    }
}

/// The one check a request passes before it carries a credential, a password or a bearer token
/// alike: within the ``CredentialScope`` (another host of the domain is recorded for the person
/// to be told), over `https` or to this computer unless plain `http` was allowed.
struct CredentialCheck: Sendable {
    let scope: CredentialScope
    let ledger: PasswordLedger
    let allowsInsecureHTTP: Bool

    /// Refuses `request` unless it may carry the credential.
    ///
    /// - Throws: ``CardDAVError/foreignLocation(server:location:)`` or
    ///   ``CardDAVError/insecureServer(_:)``.
    func admit(_ request: Request) throws(CardDAVError) {
        let verdict = scope.verdict(for: request.url)
        guard verdict != .refused, let origin = ServerOrigin(request.url) else {
            throw .foreignLocation(server: scope.server.description, location: request.url.absoluteString)
        }
        if origin.isInsecure && !allowsInsecureHTTP { throw .insecureServer(origin.description) }
        if case .sameDomain(let host, _) = verdict { ledger.record(host) }
    }
}

/// Backs off when the server asks to (429, or 503 with `Retry-After`; Google's CardDAV does under
/// load): waits `Retry-After` (seconds or an HTTP date; 1 s for a 429 without one) on the
/// provider's clock and retries once. The wait shows in the log pane as a retry with its delay.
/// A wait longer than ``maximumWait`` is not waited out: the caller gets the answer at once.
struct BackoffInterceptor: Interceptor, Plugin {
    let maximumWait: Duration
    private let marks = RetryMarks()

    init(maximumWait: Duration) {
        self.maximumWait = maximumWait
    }

    func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
        -> RetryDecision
    {
        guard case .unacceptableStatus(let response) = error else { return .doNotRetry }
        let wait: Duration
        switch response.statusCode {
        case 429: wait = response.retryAfter() ?? .seconds(1)
        case 503:
            guard let asked = response.retryAfter() else { return .doNotRetry }
            wait = asked
        default: return .doNotRetry
        }
        guard wait <= maximumWait, marks.mark(request.id) else { return .doNotRetry }
        return .retryAfter(wait)
    }

    func process(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType)
        -> Result<Response, NetworkError>
    {
        marks.forget(request.id)
        return result
    }
}
