public import CardModels

/// Why an ``AppCall`` failed, as the UI needs to know it. The glue fills it from the backend's
/// failure (its kind decides this kind, never a message), whichever server it is: the card
/// API's or a CardDAV server's.
public struct UIFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The failures the UI treats differently.
    public enum Kind: Equatable, Sendable {
        /// The server refused the values (the card API's E01): the problems by field key (`name`,
        /// `email`, …).
        case validation(fields: [String: String])
        /// Wrong email, user name or password (the card API's E02).
        case loginFailed
        /// The session is over or there is none (the card API's E06, a CardDAV password refused,
        /// not logged in): the user must log in (again).
        case mustLogIn
        /// No such card, or not yours (the card API's E05, a CardDAV 404).
        case notFound
        /// The card changed since it was read (the card API's E07, a CardDAV 412); `current` is
        /// the server's version when the glue could fetch it (the UI fetches it itself when `nil`).
        case conflict(current: Card?)
        /// The image file chosen cannot be used (missing, unreadable, not PNG or JPEG, too
        /// large): found here, before anything was sent. `problem` says what is wrong.
        case localImage(problem: String)
        /// The upload is too large (the card API's E08).
        case tooLarge
        /// The image is not a PNG or JPEG (the card API's E09).
        case unsupportedMedia
        /// Too many requests (the card API's E10); try again after this many seconds when the
        /// server said.
        case rateLimited(retryAfterSeconds: Int?)
        /// The server at `url` could not be reached at all.
        case cannotConnect(url: String)
        /// The server answered that it has no such endpoint (404 E01): the address is not the
        /// card API's base URL (it usually ends in `/v1`).
        case wrongAddress
        /// The server failed (the card API's E99, a 5xx, or an answer that was not its protocol's).
        case server(status: Int?)
        /// The call was cancelled (Esc while it ran).
        case cancelled
        /// The file to write exists already (an export says so before replacing it).
        case fileExists(path: String)
        /// Anything else: a local file that cannot be read, a malformed URL, …
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence for people (untrusted when it came from the server: shown escaped).
    public var message: String
    /// The error code the server sent (the card API's `E07`), terminal-safe; `nil` when it sent
    /// none (a CardDAV server, a failure found here). Messages name a code only when there is one.
    public var serverCode: String?

    /// A failure of `kind`, explained by `message`, with the code the server sent if any.
    public init(_ kind: Kind, message: String, serverCode: String? = nil) {
        self.kind = kind
        self.message = message
        self.serverCode = serverCode
    }

    /// The server's code as messages add it after what failed: ` (E07)`, or nothing.
    public var codeNote: String { Self.note(serverCode) }

    /// ` (code)`, or nothing without a code.
    static func note(_ code: String?) -> String { code.map { " (\($0))" } ?? "" }

    /// The message.
    public var description: String { message }
}
