public import Foundation
public import Networking

/// The authorization server's requests as a `TargetType`: its metadata, and the token
/// endpoint's two grants (RFC 6749 §4.1.3 with RFC 7636's verifier, and §6). They go through a
/// provider with the caller's plugins, so the log pane shows them — every token, code, verifier
/// and client secret as `<private>` (the form's names say so, and the client's Basic credentials
/// are an `Authorization` header) — and without the bearer interceptor: nothing here carries an
/// access token.
public struct OAuthTarget: TargetType, AccessTokenAuthorizable {
    /// A request.
    public enum Endpoint: Sendable, Equatable {
        /// `GET` a metadata document.
        case metadata
        /// `POST` the token endpoint with this form.
        case token(form: [String: String], clientAuthorization: String?)
    }

    /// The request's whole URL.
    public let url: URL
    /// What is asked.
    public let endpoint: Endpoint
    /// The exchange's deadline.
    public let timeout: Duration?

    /// A request.
    public init(url: URL, endpoint: Endpoint, timeout: Duration?) {
        self.url = url
        self.endpoint = endpoint
        self.timeout = timeout
    }

    public var baseURL: URL { url }
    public var path: String { "" }

    public var method: HTTPMethod {
        switch endpoint {
        case .metadata: .get
        case .token: .post
        }
    }

    public var body: RequestBody {
        switch endpoint {
        case .metadata: .plain
        case .token(let form, _): .parameters(form.mapValues { .string($0) }, encoding: .formURLEncoded)
        }
    }

    public var headers: Headers {
        var headers: Headers = ["Accept": "application/json"]
        if case .token(_, let authorization?) = endpoint { headers["Authorization"] = authorization }
        return headers
    }

    /// Every answer comes back to the caller, which reads RFC 6749 §5.2 errors itself.
    public var validation: Validation { .none }

    /// No bearer token: the client authenticates itself in the request.
    public var authorizationType: AuthorizationType? { nil }

    /// `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
    static func basicAuthorization(_ client: OAuthClient) -> String? {
        guard let secret = client.secret else { return nil }
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: formSafe) ?? text
        }
        return "Basic " + Data("\(encoded(client.id)):\(encoded(secret))".utf8).base64EncodedString()
    }

    private static let formSafe: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()
}
