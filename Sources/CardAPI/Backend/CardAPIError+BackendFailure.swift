import CardAPIContract
public import CardBackend

extension CardAPIError: BackendFailure {
    /// The kind of failure above the backend seam: the server's error code decides it, never
    /// its message.
    public var failureKind: BackendFailureKind {
        switch self {
        case .server(let error): Self.kind(of: error)
        case .cannotConnect(let server, _, let reason): .cannotConnect(server: server, reason: reason)
        case .timedOut, .connectionFailed: .noAnswer
        case .notLoggedIn: .notLoggedIn
        case .multipleAccounts(let server, let accounts): .multipleAccounts(server: server, accounts: accounts)
        case .sessionExpired(let server, let account): .sessionEnded(server: server, account: account)
        case .excessiveRefresh, .tokenStore: .unusable
        case .invalidImage(_, let problem): .localImage(problem: problem)
        case .invalidCardID: .notFound
        case .invalidServerURL: .badAddress
        case .insecureServer: .insecureServer
        case .invalidRequest: .other
        case .unexpectedResponse(let response): .server(status: response.statusCode)
        case .cancelled: .cancelled
        }
    }

    private static func kind(of error: ServerError) -> BackendFailureKind {
        // No such endpoint is the address's fault, not the fields'.
        if error.isUnknownEndpoint { return .wrongAddress }
        return switch error.code {
        case .badRequest?: .invalid(fields: error.fields)
        case .loginFailed?: .loginFailed
        // E03/E04 reach the caller only when a refresh and a retry did not help.
        case .accessTokenInvalid?, .accessTokenExpired?, .refreshTokenExpired?: .loginRequired
        case .cardNotFound?: .notFound
        case .versionConflict?: .conflict
        case .payloadTooLarge?: .tooLarge
        case .unsupportedMediaType?: .unsupportedMedia
        case .tooManyRequests?: .rateLimited(retryAfterSeconds: error.retryAfter.map { Int($0.components.seconds) })
        default: .server(status: error.statusCode)
        }
    }
}
