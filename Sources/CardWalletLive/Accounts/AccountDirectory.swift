public import CardBackend
import CardModels
public import CardProviders
public import Foundation
public import Secrets
public import TokenStore

/// The accounts the wallet remembers and how their backends are built: the registered providers,
/// what every backend is built on, and where the accounts' secrets live. Built once by the
/// composition root (``LiveBackends``); ``WalletAccounts`` and the commands go through it.
public struct AccountDirectory: Sendable {
    /// The kinds of server known, in the composition root's order.
    public let providers: [any BackendProvider]
    /// What backends are built on.
    public let context: ProviderContext
    /// Where passwords live.
    public let secrets: AccountSecrets
    /// The address book asked for (`--book`), over an account's own.
    public let book: String?

    /// A directory.
    public init(providers: [any BackendProvider], context: ProviderContext, secrets: AccountSecrets, book: String?) {
        self.providers = providers
        self.context = context
        self.secrets = secrets
        self.book = book
    }

    /// The token file.
    public var tokenStore: TokenStore { context.tokenStore }

    /// The accounts stored, sorted by name.
    public func records() throws(TokenStoreError) -> [AccountRecord] {
        try tokenStore.accountRecords()
    }

    /// The provider of `record`'s kind.
    ///
    /// - Throws: ``AccountProblem`` for a kind this program does not know (a newer cardwallet's).
    public func provider(for record: AccountRecord) throws(AccountProblem) -> any BackendProvider {
        guard let provider = providers.provider(forKind: record.kind) else {
            throw AccountProblem(
                "The account “\(TerminalText.escaped(record.name))” is on a kind of server this cardwallet does not "
                    + "know (“\(TerminalText.escaped(record.kind))”; it knows \(providers.kindList)): was it made by a "
                    + "newer cardwallet?")
        }
        return provider
    }

    /// The provider of the kind `id` (`--kind`).
    ///
    /// - Throws: ``AccountProblem`` naming the kinds there are.
    public func provider(forKind id: String) throws(AccountProblem) -> any BackendProvider {
        guard let provider = providers.provider(forKind: id) else {
            throw AccountProblem(
                "There is no kind of server “\(TerminalText.escaped(id))”: use one of \(providers.kindList).")
        }
        return provider
    }

    /// The backend of a stored account, built by its kind's provider.
    ///
    /// - Throws: ``AccountProblem`` for an unknown kind or an address that cannot be used.
    public func backend(for record: AccountRecord) throws(AccountProblem) -> any CardBackend {
        let provider = try provider(for: record)
        guard let url = URL(string: record.server) else {
            throw AccountProblem(
                "The account “\(TerminalText.escaped(record.name))” has a server address that is not a URL "
                    + "(\(TerminalText.escaped(record.server))): log in again.")
        }
        let requested = book.flatMap { wanted in Self.bookID(ofPath: record.book) == wanted ? nil : wanted }
        do {
            return try provider.makeBackend(
                BackendTarget(server: url, account: record, book: requested ?? Self.bookID(ofPath: record.book)),
                context: context)
        } catch {
            throw AccountProblem(String(describing: error))
        }
    }

    /// The backend of `server` before any account is stored there: of `kind`, else the first
    /// provider's (whose calls then say that nobody is logged in there).
    public func backend(at server: URL, kind: BackendKind? = nil) throws(AccountProblem) -> any CardBackend {
        let provider =
            try kind.map { kind throws(AccountProblem) in try self.provider(forKind: kind.id) } ?? providers[0]
        do {
            return try provider.makeBackend(BackendTarget(server: server, book: book), context: context)
        } catch {
            throw AccountProblem(String(describing: error))
        }
    }

    /// The provider whose kind answers at `server`, asked once, within the probe deadline.
    public func detect(_ server: URL) async throws -> any BackendProvider {
        try await providers.detect(server, context: context)
    }

    /// The id of the book at `path` (its last segment), or `nil`.
    public static func bookID(ofPath path: String?) -> String? {
        guard let path else { return nil }
        return path.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) }
    }

    // MARK: Choosing the account

    /// Which account a command or the interface uses: the one named (`--account`,
    /// `CARDWALLET_ACCOUNT`), else the one at an explicit `--server` (the default one when several
    /// are there), else the default account, else nobody at `fallback` (the settings' server).
    ///
    /// - Throws: ``ClientSetupError/account(_:)`` naming the accounts there are.
    public func choose(_ choice: AccountChoice, fallback: URL) throws(ClientSetupError) -> (
        server: URL, account: AccountRecord?
    ) {
        try Self.choose(choice, in: tokenStore, fallback: fallback)
    }

    /// ``choose(_:fallback:)`` on the records of `tokenStore` (the interface's early cache read
    /// chooses before any backend exists).
    public static func choose(_ choice: AccountChoice, in tokenStore: TokenStore, fallback: URL)
        throws(ClientSetupError) -> (server: URL, account: AccountRecord?)
    {
        let records: [AccountRecord]
        let preferred: AccountRecord?
        do {
            records = try tokenStore.accountRecords()
            preferred = try tokenStore.defaultAccountRecord()
        } catch {
            // An unreadable token file: every command says so at its first use of the session.
            return (choice.server ?? fallback, nil)
        }
        let listed = records.isEmpty ? "none" : records.map { TerminalText.escaped($0.name) }.joined(separator: ", ")
        if let name = choice.name {
            guard let record = records.first(where: { $0.isNamed(name) }) else {
                throw .account(
                    "There is no account “\(TerminalText.escaped(name))”. Accounts: \(listed) (`cardwallet accounts` "
                        + "lists them; `cardwallet login` adds one).")
            }
            if let server = choice.server, !ServerAddress.sameServer(server.absoluteString, record.server) {
                throw .account(
                    "The account “\(TerminalText.escaped(record.name))” is at \(TerminalText.escaped(record.server)), "
                        + "not at \(TerminalText.escaped(server.absoluteString)): give one or the other.")
            }
            return (URL(string: record.server) ?? fallback, record)
        }
        if let server = choice.server {
            let there = records.filter { ServerAddress.sameServer(server.absoluteString, $0.server) }
            if there.count <= 1 { return (server, there.first) }
            if let preferred, there.contains(preferred) { return (server, preferred) }
            throw .account(
                "Several accounts are at \(TerminalText.escaped(server.absoluteString)): "
                    + there.map { TerminalText.escaped($0.name) }.joined(separator: ", ")
                    + ". Choose one with --account NAME (or CARDWALLET_ACCOUNT).")
        }
        if let preferred { return (URL(string: preferred.server) ?? fallback, preferred) }
        // Files from before accounts were remembered have no default: the settings' server (as
        // every command used then) names the account, when it holds one.
        let atFallback = records.filter { ServerAddress.sameServer(fallback.absoluteString, $0.server) }
        if atFallback.count == 1 { return (fallback, atFallback[0]) }
        if records.count > 1 {
            throw .account(
                "Several accounts are stored and none is the default: \(listed). Choose one with --account NAME, "
                    + "or make one the default with `cardwallet accounts default NAME`.")
        }
        return (fallback, nil)
    }
}

/// Which account to use, as the settings say.
public struct AccountChoice: Sendable {
    /// The account's name, when one was named.
    public var name: String?
    /// The server, when one was given explicitly (not the built-in default).
    public var server: URL?

    /// A choice.
    public init(name: String? = nil, server: URL? = nil) {
        self.name = name
        self.server = server
    }
}

/// Why an account cannot be used or made: a sentence saying what to do.
public struct AccountProblem: BackendFailure, Equatable {
    public let description: String
    public var failureKind: BackendFailureKind { .badAddress }

    /// A problem.
    public init(_ description: String) { self.description = description }
}
