public import CardBackend
import TextSafety

/// Why a secret could not be kept, found or removed: a sentence a person can act on. Never
/// holds the secret, nor anything a password command printed.
public struct SecretError: BackendFailure, Equatable {
    /// The failures told apart.
    public enum Reason: Sendable, Hashable {
        /// No keyring answers here (no session bus, no Secret Service on it, no libsecret).
        case noKeyring
        /// The keyring is locked and could not be unlocked here.
        case locked
        /// The keyring answered with an error.
        case keyring
        /// The password command failed, hung, or printed nothing.
        case command
        /// No secret is kept for the account (it was removed, or never stored here).
        case missing
        /// The token file could not be used.
        case file
    }

    /// Why.
    public var reason: Reason
    /// The sentence.
    public var description: String

    /// A failure.
    public init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }

    /// A locked keyring, a failed command and a missing secret ask for a login (exit 3); a keyring
    /// that does not answer, or a token file that cannot be used, is this computer's problem.
    public var failureKind: BackendFailureKind {
        switch reason {
        case .locked, .command: .loginRequired
        case .missing: .notLoggedIn
        case .noKeyring, .keyring, .file: .unusable
        }
    }

    static func escaped(_ text: String) -> String { TerminalText.escaped(text) }
}
