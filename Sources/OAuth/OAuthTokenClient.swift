public import Foundation
public import Networking

/// The authorization server's side of the wire: its metadata, and the token endpoint's grants.
/// Every request goes through a provider with the caller's plugins (the log pane sees each
/// exchange, secrets hidden) and the transport's deadlines.
public struct OAuthTokenClient: Sendable {
    /// The client cardwallet is at the server.
    public let client: OAuthClient
    /// The deadline of one exchange.
    public let timeout: Duration
    /// Whether plain `http` to another computer is allowed.
    public let allowsInsecureHTTP: Bool
    let provider: Provider<OAuthTarget>

    /// A client on `transport`, its requests seen by `plugins`.
    public init(
        client: OAuthClient, transport: any Transport, plugins: [any Plugin], timeout: Duration = .seconds(20),
        allowsInsecureHTTP: Bool = false
    ) {
        self.client = client
        self.timeout = timeout
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.provider = Provider<OAuthTarget>(transport: transport, plugins: plugins, maximumRetries: 0)
    }

    // MARK: Metadata

    /// The issuer's metadata: RFC 8414's document, else OpenID Connect's; its issuer must be the
    /// one asked for, its endpoints `https` (or this computer's), and it must offer PKCE's S256
    /// when it lists its methods.
    ///
    /// - Throws: ``OAuthError/metadataUnavailable(issuer:detail:)`` naming what each address
    ///   answered, or a network failure when neither could be reached.
    public func metadata(of issuer: URL) async throws(OAuthError) -> AuthorizationServerMetadata {
        var problems: [String] = []
        var unreachable: OAuthError?
        for address in AuthorizationServerMetadata.addresses(for: issuer) {
            let response: Response
            do {
                response = try await send(OAuthTarget(url: address, endpoint: .metadata, timeout: timeout))
            } catch {
                if error.isCancellation { throw error }
                unreachable = unreachable ?? error
                problems.append("\(address.path): \(error.description)")
                continue
            }
            guard (200..<300).contains(response.statusCode) else {
                problems.append("\(address.path) answered \(response.statusCode)")
                continue
            }
            guard let metadata = try? JSONDecoder().decode(AuthorizationServerMetadata.self, from: response.body) else {
                problems.append("\(address.path) is not a metadata document (it lacks an issuer or an endpoint)")
                continue
            }
            guard metadata.isIssued(by: issuer) else {
                problems.append(
                    "\(address.path) names another issuer (“\(OAuthError.text(metadata.issuer))”), so it is not used")
                continue
            }
            for endpoint in [metadata.authorizationEndpoint, metadata.tokenEndpoint] {
                try checkSecure(endpoint)
            }
            if let methods = metadata.codeChallengeMethodsSupported, !methods.contains("S256") {
                throw .metadataUnavailable(
                    issuer: issuer.absoluteString,
                    detail: "it does not offer PKCE with S256 (RFC 7636), which cardwallet requires.")
            }
            return metadata
        }
        if let unreachable, problems.count == AuthorizationServerMetadata.addresses(for: issuer).count,
            problems.allSatisfy({ $0.contains(unreachable.description) })
        {
            throw unreachable
        }
        throw .metadataUnavailable(issuer: issuer.absoluteString, detail: problems.joined(separator: "; ") + ".")
    }

    /// Refuses plain `http` to another computer unless allowed.
    func checkSecure(_ url: URL) throws(OAuthError) {
        guard url.scheme?.lowercased() == "https" else {
            if url.scheme?.lowercased() == "http", allowsInsecureHTTP || OAuthIssuer.isLoopback(url.host ?? "") {
                return
            }
            throw .insecureServer(url.absoluteString)
        }
    }

    // MARK: Grants

    /// Exchanges an authorization code (RFC 6749 §4.1.3, with RFC 7636's verifier).
    public func exchange(
        code: String, verifier: String, redirectURI: URL, at metadata: AuthorizationServerMetadata
    ) async throws(OAuthError) -> OAuthTokenAnswer {
        try await token(
            form: [
                "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI.absoluteString,
                "code_verifier": verifier,
            ], at: metadata.tokenEndpoint, basic: metadata.usesBasicClientAuthentication,
            secrets: [code, verifier])
    }

    /// Exchanges a refresh token for a new access token (RFC 6749 §6).
    public func refresh(
        _ refreshToken: String, at tokenEndpoint: URL, basicClientAuthentication: Bool = true
    ) async throws(OAuthError) -> OAuthTokenAnswer {
        try await token(
            form: ["grant_type": "refresh_token", "refresh_token": refreshToken], at: tokenEndpoint,
            basic: basicClientAuthentication, secrets: [refreshToken])
    }

    /// Revokes a refresh token (RFC 7009): the server forgets it, and the access tokens it gave
    /// where the server ties them together.
    ///
    /// - Throws: the endpoint's refusal or failure, or a network failure.
    public func revoke(_ token: String, at endpoint: URL, basicClientAuthentication: Bool = true)
        async throws(OAuthError)
    {
        let response = try await post(
            ["token": token, "token_type_hint": "refresh_token"], to: endpoint, basic: basicClientAuthentication)
        guard (200..<300).contains(response.statusCode) else {
            _ = try OAuthTokenAnswer.read(response, secrets: [token] + [client.secret].compactMap { $0 })
            return
        }
    }

    private func token(
        form: [String: String], at endpoint: URL, basic: Bool, secrets: [String]
    ) async throws(OAuthError) -> OAuthTokenAnswer {
        let response = try await post(form, to: endpoint, basic: basic)
        return try OAuthTokenAnswer.read(response, secrets: secrets + [client.secret].compactMap { $0 })
    }

    /// Posts `form` to `endpoint` with the client's authentication (HTTP Basic, or in the form).
    private func post(_ form: [String: String], to endpoint: URL, basic: Bool) async throws(OAuthError) -> Response {
        try checkSecure(endpoint)
        var form = form
        var authorization: String?
        if basic, let header = OAuthTarget.basicAuthorization(client) {
            authorization = header
        } else {
            form["client_id"] = client.id
            if let secret = client.secret { form["client_secret"] = secret }
        }
        return try await send(
            OAuthTarget(
                url: endpoint, endpoint: .token(form: form, clientAuthorization: authorization), timeout: timeout))
    }

    /// Sends `target`; every answer comes back (``OAuthTarget/validation`` is `.none`), failures
    /// without one throw.
    func send(_ target: OAuthTarget) async throws(OAuthError) -> Response {
        do {
            return try await provider.request(target)
        } catch {
            throw Self.error(from: error, url: target.url)
        }
    }

    static func error(from error: NetworkError, url: URL) -> OAuthError {
        let server = Redaction.default.redact(url: url)
        switch error {
        case .transport(let failure):
            switch failure.kind {
            case .cannotConnect: return .cannotConnect(server: server, reason: failure.reason)
            case .connectTimedOut: return .cannotConnect(server: server, reason: "the connection timed out")
            case .timedOut: return .timedOut(url: server)
            case .responseTooLarge, .connectionLost, .other:
                return .connectionFailed(url: server, reason: failure.reason)
            }
        case .cancelled: return .cancelled
        case .interceptor(let underlying): return .converting(underlying)
        case .invalidRequest(let message): return .invalidRequest(message)
        case .unacceptableStatus(let response):
            return .tokenServerFailure(status: response.statusCode, detail: "")
        case .decoding(let failure):
            return .tokenServerFailure(status: failure.response.statusCode, detail: "")
        }
    }
}
