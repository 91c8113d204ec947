import ArgumentParser
import Foundation
import Logging

/// `cardwallet`: the terminal business-card wallet, its mock server and its scripting commands.
@main
struct CardWalletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardwallet",
        abstract:
            "A keyboard-driven terminal wallet for your business cards. Without a subcommand, it opens the wallet.",
        // ArgumentParser's own line ends in `<subcommand>`, as if one were required.
        usage: """
            cardwallet [<options>]                 (opens the wallet)
            cardwallet <subcommand> [<options>]    (one of the subcommands)
            """,
        discussion: """
            Without a subcommand, opens the wallet on the server: on your cards when you are logged in \
            there (the session is restored from the token file), else on the login screen with the \
            server filled in. Press ? in it for every key, l for the network log, q to quit.

            The network log is also appended to $XDG_STATE_HOME/cardwallet/cardwallet.log \
            (~/.local/state/cardwallet/ by default; 0600, rotated to cardwallet.log.1 past log.maxBytes). \
            With --log-level, swift-log messages go to cardwallet.stderr.log beside it while the \
            wallet is open.

            Each login is remembered as an account (`cardwallet accounts`), side by side with the \
            others; the default one is used unless --account or --server says otherwise. The \
            accounts and the card server's tokens are kept in \
            $XDG_STATE_HOME/cardwallet/tokens.json (~/.local/state/cardwallet/ by default), a plain \
            file of mode 0600 shared by the wallet and the scripting commands. A CardDAV password \
            goes to the system keyring, or is printed by a command each time (--password-command); \
            only when no keyring answers is it kept in that file, and login says so. \
            `cardwallet status` says where and how. Scripting commands exit 0 on success, 3 when you must log in, 4 for \
            no such card, 5 for a conflict, 6 when the server cannot be reached, 64 for a usage error, \
            65 when import skipped cards or refused a file.

            No server of your own? Try: cardwallet demo
            """,
        subcommands: [
            DemoCommand.self, MockServerCommand.self,
            LoginCommand.self, LogoutCommand.self, StatusCommand.self, AccountsCommand.self, BooksCommand.self,
            ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self,
            RemoveCommand.self, ReorderCommand.self, ImageCommand.self, QRCommand.self, ScanCommand.self,
            ImportCommand.self, ExportCommand.self, QueryCommand.self, SyncCommand.self,
            MoveCommand.self, CopyCommand.self, MergeCommand.self, DuplicatesCommand.self,
        ]
    )

    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await WalletLauncher.run(overrides: client.overrides)
    }
}
