/// A short-lived line in the status bar.
public struct StatusMessage: Equatable, Sendable {
    /// How the message looks; errors are shown in a style of their own.
    public enum Kind: Equatable, Sendable {
        case info, success, warning, error
    }

    /// How it looks.
    public var kind: Kind
    /// The text (shown escaped: it may quote a server's message).
    public var text: String
    /// When it disappears, in the time of ``AppAction/tick(now:)``.
    public var expires: Duration
    /// What the message is about, when news on that subject makes it stale: a failed page
    /// load's error goes away as soon as a page loads.
    public var topic: Topic?

    /// Subjects whose messages later news makes stale.
    public enum Topic: Equatable, Sendable {
        /// Loading the card list.
        case loadingCards
        /// Something about the list screen (a key's answer there): gone when the list is.
        case listScreen
        /// Something about the form and its text: gone when the form is.
        case form
    }

    /// A message that lasts until `expires` (or until news about `topic`).
    public init(_ kind: Kind, _ text: String, expires: Duration, topic: Topic? = nil) {
        self.kind = kind
        self.text = text
        self.expires = expires
        self.topic = topic
    }

    /// How long a message of `kind` stays: errors longer, so they can be read.
    public static func lifetime(of kind: Kind) -> Duration {
        switch kind {
        case .info, .success: .seconds(4)
        case .warning: .seconds(6)
        case .error: .seconds(10)
        }
    }
}
