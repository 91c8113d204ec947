import ArgumentParser
import CardBackend
import CardModels
import CardProviders
import CardWalletLive
import Foundation
import Secrets
import TokenStore

/// `cardwallet accounts`: the accounts the wallet remembers, and which one is the default.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the stored accounts, or choose the default one.",
        discussion: """
            Every `cardwallet login` remembers its account, side by side with the others, and makes \
            it the default: the account every command and the wallet use without --account or \
            --server. The default one is marked with *.

            Columns: NAME (what --account takes), KIND (card API, CardDAV), SERVER, BOOK (the \
            address book, on a server with books), PASSWORD (where it lives: keyring, command, \
            file — plain text —, or empty for an account whose session is kept in tokens) and \
            STATE (logged in, or log in again). --json adds the user.

            With --json, prints one array of objects: name, kind, server, user, book, bookName, \
            secret, default and loggedIn. Nothing is sent to any server; no password is read.

            Examples:
              cardwallet accounts
              cardwallet accounts default work
              cardwallet --account work list
              cardwallet accounts --json | jq -r '.[] | select(.default) | .name'

            Exit status: 0 listed (or changed); 1 the token file cannot be read; 64 no such account.
            """,
        subcommands: [AccountsListCommand.self, AccountsDefaultCommand.self],
        defaultSubcommand: AccountsListCommand.self)
}

/// `cardwallet accounts [list]`.
struct AccountsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the stored accounts (the default one marked *).")

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--json`.
    @Flag(help: "Print the accounts as one JSON array.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, choosingAccount: false) { context in
            let store = context.live.tokenStore
            let records = try store.accountRecords()
            let preferred = try store.defaultAccountRecord()?.name
            let providers = context.live.directory.providers
            var entries: [AccountEntry] = []
            for record in records {
                let tokens = try store.read(server: record.server, account: record.user)
                entries.append(
                    AccountEntry(
                        record: record, isDefault: record.name == preferred,
                        loggedIn: record.secret != nil || tokens != nil,
                        kindName: providers.provider(forKind: record.kind)?.kind.name ?? record.kind))
            }
            if json {
                Console.out(try CardText.json(entries))
                return
            }
            guard !entries.isEmpty else {
                Console.out("No accounts. Log in with `cardwallet login` (or try `cardwallet demo`).\n")
                return
            }
            let table = TextTable(
                columns: [
                    .init(""), .init("NAME", maximumWidth: 32), .init("KIND"), .init("SERVER", maximumWidth: 40),
                    .init("BOOK", maximumWidth: 20), .init("PASSWORD"), .init("STATE"),
                ],
                rows: entries.map { entry in
                    [
                        entry.isDefault ? "*" : "", entry.name, entry.kindName, entry.server,
                        entry.bookName ?? entry.bookID ?? "", entry.secret ?? "",
                        entry.loggedIn ? "logged in" : "log in again",
                    ]
                })
            Console.out(table.render())
        }
    }
}

/// `cardwallet accounts default NAME`.
struct AccountsDefaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default", abstract: "Make a stored account the default one.",
        discussion: """
            Examples:
              cardwallet accounts default work
              cardwallet accounts default 'alice@dav.example.com'
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The account.
    @Argument(help: ArgumentHelp("The account's name, as `cardwallet accounts` lists it.", valueName: "name"))
    var name: String

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, choosingAccount: false) { context in
            let store = context.live.tokenStore
            guard let record = try await store.setDefaultAccount(named: name) else {
                let names = try store.accountRecords().map { TerminalText.escaped($0.name) }
                throw CommandFailure.usage(
                    "There is no account “\(TerminalText.escaped(name))”. Accounts: "
                        + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ".")
            }
            Console.out("The default account is now “\(TerminalText.escaped(record.name))”.\n")
        }
    }
}

/// One account as `accounts --json` prints it.
struct AccountEntry: Encodable, Equatable {
    var name: String
    var kind: String
    var server: String
    var user: String
    var book: String?
    var bookName: String?
    var secret: String?
    var `default`: Bool
    var loggedIn: Bool

    /// Shown, not printed in JSON.
    var isDefault: Bool { `default` }
    /// The kind's name for people (`card API`).
    let kindName: String
    /// The book's id.
    var bookID: String? { book.flatMap { $0.split(separator: "/").last.map(String.init) } }

    init(record: AccountRecord, isDefault: Bool, loggedIn: Bool, kindName: String) {
        name = record.name
        kind = record.kind
        server = record.server
        user = record.user
        book = record.book
        bookName = record.bookName
        secret = record.secret.map(SecretText.short)
        self.default = isDefault
        self.loggedIn = loggedIn
        self.kindName = kindName
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, server, user, book, bookName, secret, `default`, loggedIn
    }
}

/// Where a password lives, in words.
enum SecretText {
    /// `keyring`, `command`, `file`.
    static func short(_ location: SecretLocation) -> String {
        switch location {
        case .keyring: "keyring"
        case .command: "command"
        case .file: "file"
        }
    }

    /// `in the system keyring`, `from \`pass show x\``, `in the token file, in plain text`.
    static func describe(_ location: SecretLocation) -> String {
        switch location {
        case .keyring: "in the system keyring"
        case .command(let argv):
            "from `\(TerminalText.escaped(PasswordCommand(arguments: argv).description))`, each time"
        case .file: "in the token file, in plain text (no keyring answered at login)"
        }
    }
}
