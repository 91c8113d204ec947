import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import Secrets
import TokenStore

/// `cardwallet logout`: ends the session on the server and forgets the account here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Log out: end the session on the server and forget the account here.",
        discussion: """
            Logs out the account in use (the default one, or the one --account or --server names), \
            or every account with --all: the server is told where it has a session, the stored \
            tokens go, the password goes from the keyring or the token file (a password command \
            keeps nothing), and the account is forgotten. Its cached cards are wiped; changes made \
            offline stay for its next login. Other accounts stay logged in; when the default one \
            goes, the first remaining one becomes the default (and logout says so).

            The tokens are removed even when the server cannot be told (it is then said so). \
            Logging out when nobody is logged in is not an error. A token file that cannot be read \
            or is unsafe is reported and left as it is.

            Examples:
              cardwallet logout
              cardwallet logout --account work
              cardwallet logout --all

            Exit status: 0 logged out (or nobody was); 1 the token file cannot be read, is unsafe \
            or could not be changed; 64 no such account.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--all`.
    @Flag(help: "Log out every stored account.")
    var all = false

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if all, client.account != nil { throw ValidationError("--all and --account: choose one.") }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, choosingAccount: !all) { context in
            let accounts = context.accounts
            let records = all ? accounts.records() : accounts.account.map { [$0] } ?? []
            guard !records.isEmpty else {
                // Nothing remembered: a backend at the server may still hold tokens of an older file.
                let results = try await accounts.logOut(everyAccount: true)
                let server = TerminalText.escaped(accounts.shownServer)
                for result in results { Self.report(result, name: nil, server: server) }
                return
            }
            let wasDefault = (try? context.live.tokenStore.defaultAccountRecord())?.name
            for record in records {
                let result = try await accounts.logOut(record)
                Self.report(result, name: record.name, server: TerminalText.escaped(record.server))
            }
            let now = try? context.live.tokenStore.defaultAccountRecord()
            if let now, now.name != wasDefault {
                Console.out("The default account is now “\(TerminalText.escaped(now.name))”.\n")
            }
        }
    }

    /// Says what one logout did.
    private static func report(_ result: LogoutReport, name: String?, server: String) {
        guard let account = result.account else {
            Console.out("Not logged in at \(server); nothing to do.\n")
            return
        }
        let who = TerminalText.escaped(name ?? account)
        if result.serverTold {
            Console.out("Logged out \(who) at \(server).\n")
        } else {
            let reason = result.serverProblem.map { " \($0.description)" } ?? ""
            Console.out("Logged out \(who) here; the stored tokens are removed.\n")
            Console.warning("the server could not be told to end the session.\(reason)")
        }
    }
}

/// `cardwallet status`: who is logged in where, until when, and where the tokens are kept.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show who is logged in where, when the tokens expire and where they are stored.",
        discussion: """
            Reads the token file only: nothing is sent to the server. The tokens themselves are \
            never shown. The token file is a plain JSON file protected by its permissions (mode \
            0600 in a 0700 folder), not encrypted; status says so.

            The account is the one in use: the default one, or the one --account or --server \
            names (`cardwallet accounts` lists them all).

            With --json, prints the same as one JSON object: state (loggedIn, refreshing, \
            loggedOut or expired), account (its name), kind (cardAPI, cardDAV…: from the stored \
            account), server, serverFrom, addressBook (its display name, on a server with books), \
            addressBookId, secret (keyring, command or file: where the password lives), email, \
            name, userId, accessTokenExpiresAt, refreshTokenExpiresAt, tokenFile, storage, \
            problem and configFile; values that are not known are left out. Never a token or a \
            password.

            Examples:
              cardwallet status
              cardwallet status && cardwallet list     # list only when logged in
              cardwallet status --json | jq -r .email

            Exit status: 0 logged in; 3 not logged in or the session expired; 1 the token file \
            cannot be read (the message says why).
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--json`.
    @Flag(help: "Print the status as one JSON object (never a token).")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let report = await context.backend.status()
            let record = context.accounts.account
            let serverFrom =
                record != nil && context.resolved.settings.serverIsDefault
                ? "the account" : context.resolved.origin(of: .server).description
            if json {
                Console.out(
                    try CardText.json(
                        StatusJSON(
                            report, record: record, serverFrom: serverFrom, tokenFile: context.live.tokenStore.path,
                            configFile: context.resolved.configFile)))
            } else {
                var lines = [report.description]
                if let record {
                    lines.append("account: \(TerminalText.escaped(record.name)) (\(report.kind))")
                    if let secret = record.secret {
                        // An OAuth account keeps its refresh token where a password account keeps its password.
                        let what = record.oauth == nil ? "password" : "refresh token"
                        lines.append("\(what): \(SecretText.describe(secret))")
                    }
                    if let oauth = record.oauth {
                        lines.append(
                            "OAuth 2.0: \(TerminalText.escaped(oauth.issuer)), client \(TerminalText.escaped(oauth.clientID))"
                        )
                    }
                }
                lines.append(
                    "server: \(TerminalText.escaped(report.server)) (from \(TerminalText.escaped(serverFrom)))")
                if let file = context.resolved.configFile { lines.append("config file: \(TerminalText.escaped(file))") }
                Console.out(lines.joined(separator: "\n") + "\n")
            }
            if report.problem != nil { throw ExitCode(CLIExitCode.failure) }
            switch report.state {
            case .loggedIn, .refreshing: return
            case .loggedOut, .expired: throw ExitCode(CLIExitCode.loginRequired)
            }
        }
    }
}
