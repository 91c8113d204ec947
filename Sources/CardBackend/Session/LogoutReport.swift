/// What logging one account out did.
public struct LogoutReport: Sendable, CustomStringConvertible {
    /// The account logged out, or `nil` when nobody was logged in.
    public var account: String?
    /// Whether the server confirmed it ended the session.
    public var serverTold: Bool
    /// Why the server could not be told (the credential is forgotten here anyway).
    public var serverProblem: (any BackendFailure)?

    /// A report.
    public init(account: String?, serverTold: Bool, serverProblem: (any BackendFailure)?) {
        self.account = account
        self.serverTold = serverTold
        self.serverProblem = serverProblem
    }

    /// `logged out ann@example.com (the server was told)`.
    public var description: String {
        guard let account else { return "nobody was logged in" }
        return "logged out \(account)" + (serverTold ? " (the server was told)" : " (the server was not told)")
    }
}
