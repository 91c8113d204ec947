public import CardBackend
public import CardModels
public import CardWalletUI

extension UIFailure {
    /// The failure the UI shows for a backend's failure. Its kind decides (the server's error
    /// code for the card API, never its message); the message is the backend's sentence, which
    /// is terminal-safe and never holds a token or password.
    ///
    /// - Parameters:
    ///   - error: What the call threw.
    ///   - current: For a conflict, the server's version of the card when the caller could
    ///     read it; the form then shows it beside the user's.
    public init(_ error: any BackendFailure, current: Card? = nil) {
        self.init(
            Self.kind(of: error.failureKind, current: current), message: Self.message(for: error),
            serverCode: error.serverCode)
    }

    /// The failure for any error a call threw: a backend's as above, cancellation as such, and
    /// anything else as its description.
    public init(any error: any Error) {
        if let failure = error as? any BackendFailure {
            self.init(failure)
        } else if error is CancellationError {
            self.init(.cancelled, message: "Stopped")
        } else {
            self.init(.other, message: TerminalText.escaped(String(describing: error)))
        }
    }

    /// The kind of a failure of `kind`.
    static func kind(of kind: BackendFailureKind, current: Card?) -> Kind {
        switch kind {
        case .invalid(let fields): .validation(fields: fields)
        case .loginFailed: .loginFailed
        // Every one of these needs a login before anything else works: the UI opens its login
        // dialog and replays the request after it.
        case .notLoggedIn, .multipleAccounts, .sessionEnded, .loginRequired: .mustLogIn
        case .notFound: .notFound
        case .conflict: .conflict(current: current)
        case .tooLarge: .tooLarge
        case .unsupportedMedia: .unsupportedMedia
        case .rateLimited(let seconds): .rateLimited(retryAfterSeconds: seconds)
        case .cannotConnect(let server, _): .cannotConnect(url: server)
        case .noAnswer: .server(status: nil)
        // No such endpoint is the server address's fault, not the fields'.
        case .wrongAddress: .wrongAddress
        // Checked here, before anything was sent.
        case .localImage(let problem): .localImage(problem: problem.description)
        case .server(let status): .server(status: status)
        case .badAddress, .insecureServer, .unusable, .cancelled, .other: .other
        }
    }

    private static func message(for error: any BackendFailure) -> String {
        switch error.failureKind {
        case .cannotConnect(_, let reason):
            // The UI puts the URL in front of this: say only why and what to do.
            let hint = reason.contains("refused") ? "is the server running?" : "check the address and the network"
            return TerminalText.escaped("\(reason); \(hint)")
        case .localImage(let problem):
            return problem.description
        case .insecureServer:
            return error.description + " To allow it, start cardwallet with --allow-insecure-http."
        default:
            return error.description
        }
    }
}
