import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import TokenStore

/// `cardwallet logout`: ends the session on the server and removes the stored tokens.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Log out: end the session on the server and remove the stored tokens.",
        discussion: """
            The tokens are removed from the token file even when the server cannot be told \
            (it is then said so). Logging out when nobody is logged in is not an error. When \
            several accounts are logged in at the server, all of them are logged out. A token \
            file that cannot be read or is unsafe is reported and left as it is.

            Examples:
              cardwallet logout
              cardwallet logout --server http://127.0.0.1:9000/v1

            Exit status: 0 logged out (or nobody was); 1 the token file cannot be read, is unsafe \
            or could not be changed.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            // The cached cards of each account go with its session (never left behind); changes
            // made offline stay for its next login.
            let results = try await context.accounts.logOut(everyAccount: true)
            let server = TerminalText.escaped(context.accounts.shownServer)
            for result in results { Self.report(result, server: server) }
        }
    }

    /// Says what one logout did.
    private static func report(_ result: LogoutReport, server: String) {
        guard let account = result.account else {
            Console.out("Not logged in at \(server); nothing to do.\n")
            return
        }
        if result.serverTold {
            Console.out("Logged out \(TerminalText.escaped(account)) at \(server).\n")
        } else {
            let reason = result.serverProblem.map { " \($0.description)" } ?? ""
            Console.out("Logged out \(TerminalText.escaped(account)) here; the stored tokens are removed.\n")
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

            With --json, prints the same as one JSON object: state (loggedIn, refreshing, \
            loggedOut or expired), kind (cardAPI or cardDAV), server, serverFrom, addressBook \
            (CardDAV), email, name, userId, accessTokenExpiresAt, refreshTokenExpiresAt, \
            tokenFile, storage, problem and configFile; values that are not known are left out. \
            Never a token or a password.

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
            let serverFrom = context.resolved.origin(of: .server).description
            if json {
                Console.out(
                    try CardText.json(
                        StatusJSON(
                            report, serverFrom: serverFrom, tokenFile: context.live.tokenStore.path,
                            configFile: context.resolved.configFile)))
            } else {
                var lines = [report.description]
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
