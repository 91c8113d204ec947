public import CardModels

/// Why a ``Request`` failed, as the UI needs to know it. The glue fills it from CardAPI's
/// errors (the server's error code decides the kind, never its message).
public struct UIFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The failures the UI treats differently.
    public enum Kind: Equatable, Sendable {
        /// E01: the fields the server rejected, by field key (`name`, `email`, …).
        case validation(fields: [String: String])
        /// E02: wrong email or password.
        case loginFailed
        /// E06: the refresh token is gone; the user must log in again.
        case sessionExpired
        /// E05: no such card (or not yours).
        case notFound
        /// E07: the card changed since it was read; `current` is the server's version when the
        /// glue could fetch it (the UI fetches it itself when `nil`).
        case conflict(current: Card?)
        /// The image file chosen cannot be used (missing, unreadable, not PNG or JPEG, too
        /// large): found here, before anything was sent. `problem` says what is wrong.
        case localImage(problem: String)
        /// E08: the upload is too large.
        case tooLarge
        /// E09: the image is not a PNG or JPEG.
        case unsupportedMedia
        /// E10: too many requests; try again after this many seconds when the server said.
        case rateLimited(retryAfterSeconds: Int?)
        /// The server at `url` could not be reached at all.
        case cannotConnect(url: String)
        /// The server answered that it has no such endpoint (404 E01): the address is not the
        /// card API's base URL (it usually ends in `/v1`).
        case wrongAddress
        /// The server failed (E99, a 5xx, or an answer that was not the API's).
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

    /// A failure of `kind`, explained by `message`.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
