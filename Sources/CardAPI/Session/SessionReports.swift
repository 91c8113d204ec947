import CardAPIContract
import CardBackend
import CardModels
import Foundation
import Networking

/// What ``CardSession/logout()`` did.
public struct LogoutResult: Sendable, Equatable {
    /// The account logged out, or `nil` when nobody was logged in.
    public var account: String?
    /// Whether the server confirmed it ended the session.
    public var serverRevoked: Bool
    /// Why the server could not be told (the stored tokens are deleted anyway).
    public var serverProblem: CardAPIError?

    /// A result.
    public init(account: String?, serverRevoked: Bool, serverProblem: CardAPIError?) {
        self.account = account
        self.serverRevoked = serverRevoked
        self.serverProblem = serverProblem
    }
}
