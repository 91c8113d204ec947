import CardAPIContract
public import CardBackend

extension CardAPIError: BackendFailure {
    /// The contract's error code the server answered with (terminal-safe), or the session's end
    /// (E06) it learnt from one.
    public var serverCode: String? { errorCode?.description }

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
        // What the contract says the code means (its row of ErrorCode.table); a code this build
        // does not know is the server's failure.
        guard let meaning = error.code?.row?.meaning else { return .server(status: error.statusCode) }
        return switch meaning {
        case .invalid: .invalid(fields: error.fields)
        case .loginFailed: .loginFailed
        // E03/E04 reach the caller only when a refresh and a retry did not help; E06 ends the
        // session in the session itself (CardAPIError.sessionExpired).
        case .accessRefused, .sessionEnded: .loginRequired
        case .notFound: .notFound
        case .conflict: .conflict
        case .tooLarge: .tooLarge
        case .unsupportedMedia: .unsupportedMedia
        case .rateLimited: .rateLimited(retryAfterSeconds: error.retryAfter.map { Int($0.components.seconds) })
        case .serverFailure: .server(status: error.statusCode)
        }
    }
}
