import ArgumentParser
import CardBackend

/// The exit statuses of the scripting commands, distinct so scripts can react to each case.
///
/// | status | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | any other failure (server error, token store problem, declined confirmation, …) |
/// | 3 | not logged in, the session ended (the card API's E06, a CardDAV password refused), or wrong email or password: log in |
/// | 4 | no such card (the card API's E05, a CardDAV 404, or text that cannot be a card id) |
/// | 5 | conflict: the card changed since it was read (the card API's E07, a CardDAV 412); re-run the command |
/// | 6 | network failure: cannot connect, timed out, or the connection broke |
/// | 64 | usage error: bad options or settings (a server address that is not a URL, or not the server's base URL: the card API's 404 E01), or values the server refused as invalid (the card API's E01) |
/// | 65 | bad data: `import` skipped cards it could not import, or refused an input that is not vCard |
/// | 130 | cancelled at a prompt (Ctrl-C) |
enum CLIExitCode {
    /// Any other failure.
    static let failure: Int32 = 1
    /// Log in first.
    static let loginRequired: Int32 = 3
    /// No such card.
    static let notFound: Int32 = 4
    /// The card changed since it was read.
    static let conflict: Int32 = 5
    /// The server could not be reached or did not answer.
    static let networkFailure: Int32 = 6
    /// Bad command line, settings or values; swift-argument-parser's own code (EX_USAGE).
    static let usage: Int32 = ExitCode.validationFailure.rawValue
    /// Input data that cannot be used (EX_DATAERR): skipped or refused cards of `import`.
    static let dataError: Int32 = 65
    /// Cancelled at a prompt.
    static let cancelled: Int32 = 130

    /// The status for a backend's failure, from its kind.
    static func status(for error: any BackendFailure) -> Int32 {
        switch error.failureKind {
        case .notLoggedIn, .multipleAccounts, .sessionEnded, .loginRequired, .loginFailed: loginRequired
        case .notFound: notFound
        case .conflict: conflict
        case .cannotConnect, .noAnswer: networkFailure
        // A server address that is not the server's base URL is a setting to fix, like one that
        // is not a URL at all; refused values and pictures are the command line's to fix.
        case .wrongAddress, .badAddress, .insecureServer, .localImage, .invalid: usage
        case .cancelled: cancelled
        case .tooLarge, .unsupportedMedia, .rateLimited, .server, .unusable, .other: failure
        }
    }
}

/// A failure of a scripting command that is not the card API's: it carries its message and
/// exit status.
struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// One or two sentences for standard error (already safe to print).
    var message: String
    /// The exit status.
    var status: Int32

    /// A failure.
    init(_ message: String, status: Int32 = CLIExitCode.failure) {
        self.message = message
        self.status = status
    }

    /// A usage error (exit status 64).
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message, status: CLIExitCode.usage)
    }

    var description: String { message }
}
