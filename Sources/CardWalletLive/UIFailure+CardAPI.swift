public import CardAPI
public import CardModels
public import CardWalletUI
import Networking

extension UIFailure {
    /// The failure the UI shows for a CardAPI error. The server's error code decides the kind
    /// (never its message); the message is CardAPI's sentence, which is terminal-safe and never
    /// holds a token or password.
    ///
    /// - Parameters:
    ///   - error: What the call threw.
    ///   - current: For a version conflict (E07), the server's version of the card when the
    ///     caller could fetch it; the form then shows it beside the user's.
    public init(_ error: CardAPIError, current: Card? = nil) {
        self.init(Self.kind(of: error, current: current), message: Self.message(for: error))
    }

    /// The kind of `error`.
    static func kind(of error: CardAPIError, current: Card?) -> Kind {
        switch error {
        case .server(let server):
            return kind(of: server, current: current)
        case .cannotConnect(let server, _, _):
            return .cannotConnect(url: server)
        case .timedOut, .connectionFailed:
            return .server(status: nil)
        case .notLoggedIn, .multipleAccounts, .sessionExpired:
            // Every one of these needs a login before anything else works: the UI opens its
            // login dialog and replays the request after it.
            return .sessionExpired
        case .invalidImage(_, let problem):
            // Checked here, before anything was sent: no server code belongs to it.
            return .localImage(problem: problem.description)
        case .invalidCardID:
            return .notFound
        case .unexpectedResponse(let response):
            return .server(status: response.statusCode)
        case .excessiveRefresh, .tokenStore, .invalidServerURL, .insecureServer, .invalidRequest, .cancelled:
            return .other
        }
    }

    private static func kind(of error: ServerError, current: Card?) -> Kind {
        // No such endpoint is the server address's fault, not the fields': CardAPI's message
        // says so and names the base URL, for the interface and the scripting commands alike.
        if error.isUnknownEndpoint { return .wrongAddress }
        return switch error.code {
        case .badRequest?: .validation(fields: error.fields)
        case .loginFailed?: .loginFailed
        // E03/E04 reach the caller only when a refresh and retry did not help: log in again.
        case .accessTokenInvalid?, .accessTokenExpired?, .refreshTokenExpired?: .sessionExpired
        case .cardNotFound?: .notFound
        case .versionConflict?: .conflict(current: current)
        case .payloadTooLarge?: .tooLarge
        case .unsupportedMediaType?: .unsupportedMedia
        case .tooManyRequests?:
            .rateLimited(retryAfterSeconds: error.retryAfter.map { Int($0.components.seconds) })
        default: .server(status: error.statusCode)
        }
    }

    private static func message(for error: CardAPIError) -> String {
        switch error {
        case .cannotConnect(_, _, let reason):
            // The UI puts the URL in front of this: say only why and what to do.
            let hint = reason.contains("refused") ? "is the server running?" : "check the address and the network"
            return TerminalText.escaped("\(reason); \(hint)")
        case .invalidImage(_, let problem):
            return problem.description
        case .insecureServer:
            return error.description + " To allow it, start cardwallet with --allow-insecure-http."
        default:
            return error.description
        }
    }
}
