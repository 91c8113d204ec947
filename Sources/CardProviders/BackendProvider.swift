public import CardBackend
public import Foundation
public import TokenStore

/// What a backend module offers the composition root: one value that knows its kind of server.
/// It probes an address, builds a backend from an account record (or for a login at an address),
/// and says which logins it takes. Optional abilities (``CardBackend/AddressBooks``) are
/// protocols its backends adopt, asked with `as? any AddressBooks`.
///
/// The composition root holds the list (`Providers.standard` in CardWalletLive) and loops over
/// it; the kind of an account is stored in its record and read back, never guessed from what
/// else is stored. docs/Architecture.md, "How to add a backend".
public protocol BackendProvider: Sendable {
    /// The kind of server, as records store it.
    var kind: BackendKind { get }
    /// The logins this kind of server takes.
    var logins: Set<LoginMethod> { get }
    /// Where probes of this kind rank when several answer (the lowest first); a provider that
    /// takes whatever no other claims ranks last.
    var probeRank: Int { get }

    /// Whether the server at `server` is of this kind, asked once, at a login, within
    /// `context.settings.probeTimeout`.
    func probe(_ server: URL, context: ProviderContext) async -> ProbeAnswer

    /// The backend of `target`: an account stored (``BackendTarget/account``), or an address
    /// before its first login.
    ///
    /// - Throws: a ``CardBackend/BackendFailure`` when the address cannot be used.
    func makeBackend(_ target: BackendTarget, context: ProviderContext) throws -> any CardBackend
}

extension BackendProvider {
    public var probeRank: Int { 0 }
}

/// A probe's answer.
public enum ProbeAnswer: Sendable {
    /// The server answered as this kind does.
    case yes
    /// The server answered, and not as this kind.
    case no
    /// The server answered in a way this kind may take (a CardDAV server that hides itself until
    /// a login).
    case maybe
    /// The server could not be reached (or did not answer in time).
    case unreachable(any BackendFailure)
}

/// What a backend is built for.
public struct BackendTarget: Sendable {
    /// The server's address.
    public var server: URL
    /// The account stored, or `nil` before the first login at ``server``.
    public var account: AccountRecord?
    /// The address book asked for (`--book`), over the record's.
    public var book: String?

    /// A target.
    public init(server: URL, account: AccountRecord? = nil, book: String? = nil) {
        self.server = server
        self.account = account
        self.book = book
    }
}
