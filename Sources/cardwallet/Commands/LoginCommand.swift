import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import OAuth
import Secrets
import TokenStore

/// `cardwallet login`: logs in and remembers the account for the other commands.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to the card server or a CardDAV server, and remember the account.",
        discussion: """
            The account is remembered and becomes the default: every later command and the \
            wallet use it with no --server. Accounts are kept side by side, on the same server or \
            on different ones: logging in adds or refreshes one and logs no other out \
            (`cardwallet accounts` lists them, --account NAME picks one, `cardwallet accounts \
            default NAME` changes the default). Without --server, the login goes to the server \
            of the account in use (or the one --account names), as its user unless --email says \
            otherwise.

            The kind of server is asked once, here, within a few seconds (or not at all with \
            --kind), and kept with the account. On the card API the password is never stored: \
            only the server's tokens are kept, in the token file (see `cardwallet status`). A \
            CardDAV server (Radicale, Nextcloud, Fastmail, iCloud…) takes its user name (--email \
            takes it) and password — an app password where the provider has them — on every \
            request, so the password is kept where Linux keeps secrets: in the system keyring \
            (GNOME Keyring, KeePassXC, KWallet, through libsecret), or nowhere when \
            --password-command gives it (run each time it is needed, e.g. `pass show dav/alice`; \
            the first line of its output is the password). Only when no keyring answers does it \
            go to the token file (mode 0600, not encrypted), and the login says so. A locked \
            keyring that cannot be unlocked here is an error: the password never falls back to \
            plain text in silence. It is sent only to that server, only over https or to this \
            computer. The login finds the account's address books (from the address given, or \
            /.well-known/carddav) and uses the one --book names, else the first; `cardwallet \
            books` lists them.

            The password is asked at the terminal without echo, read from standard input with \
            --password-stdin (the first line; for scripts), or printed by --password-command.

            A CardDAV server behind OAuth 2.0 — Google Contacts, or any server whose authorization \
            server publishes RFC 8414 metadata or OpenID Connect discovery — takes no password: \
            --oauth google (or --oauth https://issuer.example/ with --server naming the CardDAV \
            address) logs in in a browser. It needs the OAuth client you registered (Google: a \
            "Desktop app" client, docs/CardDAV.md): --client-id and --client-secret, or "oauth" \
            in the config file. cardwallet listens on 127.0.0.1 for the browser's answer, opens \
            the browser with xdg-open where there is a display, and prints the address to open \
            (on another device too); it waits until oauth.redirectTimeout (5 minutes), and \
            Ctrl-C stops it. Nothing is stored until the login worked: then the access token goes \
            to the token file and the refresh token (with the client secret) to the keyring.

            Examples:
              cardwallet login --email demo@cardwallet.dev
              printf '%s\\n' "$PASSWORD" | cardwallet login --email demo@cardwallet.dev --password-stdin
              cardwallet login --server http://127.0.0.1:9000/v1 --email minji@cardwallet.dev
              cardwallet login --server https://dav.example.com/ --email alice --book work
              cardwallet login --server https://dav.example.com/ --email alice --password-command 'pass show dav/alice'
              cardwallet login --server https://dav.example.com/ --kind cardDAV --email bob --name work
              cardwallet login --account work          # log in again as a stored account
              cardwallet login --oauth google --client-id ID.apps.googleusercontent.com --client-secret SECRET
              cardwallet login --oauth https://id.example.com/ --server https://dav.example.com/ --client-id cardwallet

            Exit status: 0 logged in; 3 wrong email or password, a locked keyring, a failing \
            password command, or an OAuth login refused, answered for another login or not \
            finished in time; 6 server unreachable; 64 usage error (no terminal for the prompts, \
            say, a name already taken, or a server address that is not the API's base URL, \
            which usually ends in /v1); 130 cancelled with Ctrl-C.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--email`.
    @Option(
        name: [.customLong("email"), .customLong("user")],
        help: ArgumentHelp(
            "The account's user name: the email on the card API, the user name on a CardDAV server. Asked at the "
                + "terminal when not given (the account in use's, when logging in again).",
            valueName: "email"))
    var email: String?

    /// `--password-stdin`.
    @Flag(
        name: .customLong("password-stdin"),
        help: "Read the password from the first line of standard input instead of asking at the terminal.")
    var passwordStdin = false

    /// `--password-command`.
    @Option(
        name: .customLong("password-command"),
        help: ArgumentHelp(
            "A command that prints the password (first line of its output), run by /bin/sh each time the password "
                + "is needed; nothing is stored then. Also CARDWALLET_PASSWORD_COMMAND and \"passwordCommand\" in "
                + "the config file.",
            valueName: "command"))
    var passwordCommand: String?

    /// `--kind`.
    @Option(
        help: ArgumentHelp(
            "The kind of server: cardAPI or cardDAV. Nothing is asked of the server to find out then.",
            valueName: "kind"))
    var kind: String?

    /// `--name`.
    @Option(
        help: ArgumentHelp(
            "The account's name, for --account (default: the email, or user@host).", valueName: "name"))
    var name: String?

    /// `--oauth`.
    @Option(
        help: ArgumentHelp(
            "Log in with OAuth 2.0 in a browser instead of a password: `google`, or the authorization server's "
                + "https address (its RFC 8414 or OpenID Connect metadata is read), with --server naming the "
                + "CardDAV server.",
            valueName: "google|url"))
    var oauth: String?

    /// `--client-id`.
    @Option(
        name: .customLong("client-id"),
        help: ArgumentHelp(
            "The OAuth client id (Google: your \"Desktop app\" client's). Also \"oauth.clientId\" in the config "
                + "file and CARDWALLET_OAUTH_CLIENT_ID.", valueName: "id"))
    var clientID: String?

    /// `--client-secret`.
    @Option(
        name: .customLong("client-secret"),
        help: ArgumentHelp(
            "The OAuth client's secret, when it has one (Google's Desktop clients do); kept in the keyring with the "
                + "refresh token. Also \"oauth.clientSecret\" and CARDWALLET_OAUTH_CLIENT_SECRET.",
            valueName: "secret"))
    var clientSecret: String?

    /// `--scope`.
    @Option(
        help: ArgumentHelp(
            "The OAuth scope to ask for (default: openid email; Google's CardDAV scope with --oauth google).",
            valueName: "scope"))
    var scope: String?

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if oauth == nil, clientID != nil || clientSecret != nil || scope != nil {
            throw ValidationError("--client-id, --client-secret and --scope go with --oauth.")
        }
        if oauth != nil, passwordStdin || passwordCommand != nil {
            throw ValidationError(
                "--oauth logs in in a browser: it takes no password (--password-stdin, --password-command).")
        }
        if passwordStdin, passwordCommand != nil {
            throw ValidationError("--password-stdin and --password-command both give the password: choose one.")
        }
        if passwordStdin, (email ?? "").trimmingCharacters(in: .whitespaces).isEmpty, client.account == nil {
            throw ValidationError("--password-stdin needs --email: there is no terminal to ask for it on.")
        }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--name is empty.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let settings = context.resolved.settings
            // Logging in again as the account in use (or the one --account names) needs no email.
            let stored = context.accounts.account
            if let issuer = oauth
                ?? (email == nil && passwordCommand == nil && !passwordStdin ? stored?.oauth?.issuer : nil)
            {
                try await logInWithOAuth(issuer: issuer, stored: stored, context: context)
                return
            }
            let user = email ?? stored?.user
            let command = (passwordCommand ?? (passwordStdin ? nil : settings.passwordCommand)).map {
                PasswordCommand(shell: $0)
            }
            let credentials = try await readCredentials(user: user, command: command, environment: context.environment)
            let report = try await context.accounts.logIn(
                LoginRequest(
                    server: settings.serverIsDefault ? nil : settings.server,
                    user: credentials.user, password: credentials.password, passwordCommand: command,
                    kind: kind, name: name))
            Self.say(report)
            // Changes this account made offline before its session ended go now.
            if let sent = await context.accounts.sendWaitingChanges() {
                Console.out(
                    "Sent \(sent.sent) change(s) made offline"
                        + (sent.pending + sent.refused.count > 0
                            ? "; \(sent.pending + sent.refused.count) still wait (`cardwallet sync`)" : "") + ".\n")
            }
        }
    }

    /// The OAuth login: the browser's part, then the tokens kept and the account stored.
    private func logInWithOAuth(issuer text: String, stored: AccountRecord?, context: CommandContext) async throws {
        let settings = context.resolved.settings
        var issuer: OAuthIssuer
        do {
            issuer = try OAuthIssuer.named(text, allowingInsecureHTTP: settings.allowInsecureHTTP)
        } catch {
            throw usage(error.description)
        }
        if let scope = scope ?? settings.oauth.scope { issuer.scope = scope }
        let sameIssuer = stored?.oauth?.issuer == issuer.recordName
        guard let id = clientID ?? settings.oauth.clientID ?? (sameIssuer ? stored?.oauth?.clientID : nil) else {
            throw usage(
                "--oauth needs the OAuth client's id: --client-id, or \"oauth\": {\"clientId\": …} in the config file "
                    + "(Google: make a \"Desktop app\" client, docs/CardDAV.md).")
        }
        let secret = clientSecret ?? settings.oauth.clientSecret
        let deadline = settings.oauth.redirectTimeout
        let report = try await context.accounts.logIn(
            LoginRequest(
                server: settings.serverIsDefault ? nil : settings.server, user: email ?? "", password: "",
                kind: kind, name: name,
                oauth: OAuthLoginRequest(
                    issuer: issuer, client: OAuthClient(id: id, secret: secret), deadline: deadline,
                    present: { url in Self.present(url, deadline: deadline, environment: context.environment) })))
        Self.say(report)
        if let sent = await context.accounts.sendWaitingChanges() {
            Console.out(
                "Sent \(sent.sent) change(s) made offline"
                    + (sent.pending + sent.refused.count > 0
                        ? "; \(sent.pending + sent.refused.count) still wait (`cardwallet sync`)" : "") + ".\n")
        }
    }

    /// Shows the authorization address: opens the browser where there is a display, and prints the
    /// address in any case (for another device, or when the browser does not open).
    static func present(_ url: URL, deadline: Duration, environment: [String: String]) {
        let minutes =
            deadline.components.seconds >= 120
            ? "\(deadline.components.seconds / 60) minutes" : "\(deadline.components.seconds) s"
        let opened = BrowserOpener.open(url, environment: environment)
        Console.err(
            (opened
                ? "Opened your browser to log in. If it did not open, open this address"
                : "Open this address in a browser to log in (on this computer, or another device that can reach it)")
                + ":\n\n  \(url.absoluteString)\n\nWaiting for the browser to come back (at most \(minutes); Ctrl-C cancels)…\n"
        )
    }

    /// What the login did, for the person.
    static func say(_ report: LoginReport) {
        let user = report.account
        let name = (user.name ?? "").isEmpty ? "" : "\(TerminalText.escaped(user.name ?? "")) "
        let place =
            report.kind == .cardAPI
            ? ""
            : " (\(report.kind)"
                + (report.addressBook.map { ", address book “\(TerminalText.escaped($0))”" } ?? "") + ")"
        Console.out(
            "Logged in as \(name)<\(TerminalText.escaped(user.email))> at "
                + "\(TerminalText.escaped(report.server))\(place).\n")
        if let record = report.record {
            var line = "Account “\(TerminalText.escaped(record.name))”, the default now"
            switch record.secret {
            case .keyring? where record.oauth != nil: line += "; its refresh token is kept in the system keyring"
            case .keyring?: line += "; its password is kept in the system keyring"
            case .command(let argv)?:
                line +=
                    "; its password comes from `\(TerminalText.escaped(PasswordCommand(arguments: argv).description))`"
            case .file?, nil: break
            }
            Console.out(line + ".\n")
        }
        if let note = report.note { Console.note(note) }
        if let note = report.secretNote { Console.warning(note) }
        for other in report.othersWaiting {
            Console.warning(
                "\(other.changes) change\(other.changes == 1 ? "" : "s") made offline as "
                    + "\(TerminalText.escaped(other.account)) \(other.changes == 1 ? "is" : "are") kept on this "
                    + "computer, unsent: \(other.changes == 1 ? "it is" : "they are") sent when "
                    + "\(TerminalText.escaped(other.account)) logs in here again (`cardwallet sync`).")
        }
    }

    /// The user and password, from the options, the password command, standard input or the terminal.
    private func readCredentials(
        user: String?, command: PasswordCommand?, environment: [String: String]
    ) async throws -> (user: String, password: String) {
        if let command {
            guard let user, !user.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw usage("--password-command needs --email: the user name to log in as.")
            }
            return (user, try await command.password(environment: environment))
        }
        if passwordStdin {
            let line = FileHandle.standardInput.readLine(maximumBytes: Self.maximumPasswordBytes + 1)
            guard let password = line, !password.isEmpty else {
                throw usage("No password on standard input: --password-stdin reads the first line.")
            }
            // Never send a silently shortened password.
            guard password.utf8.count <= Self.maximumPasswordBytes else {
                throw usage(
                    "The first line of standard input is longer than \(Self.maximumPasswordBytes) bytes; "
                        + "it cannot be a password. Nothing was sent.")
            }
            return (user ?? "", password)
        }
        guard let terminal = TerminalPrompt.openControllingTerminal() else {
            throw usage(
                "There is no terminal to ask for the password on. Use --email with --password-stdin or "
                    + "--password-command in scripts.")
        }
        defer { terminal.close() }
        var address = user ?? ""
        while address.trimmingCharacters(in: .whitespaces).isEmpty {
            address = try terminal.readLine(prompt: "Email or user name: ")
        }
        let password = try terminal.readSecret(prompt: "Password for \(TerminalText.escaped(address)): ")
        guard !password.isEmpty else { throw usage("The password is empty; nothing was sent.") }
        return (address, password)
    }

    /// The longest password line `--password-stdin` takes.
    static let maximumPasswordBytes = 4096

    private func usage(_ message: String) -> CommandFailure {
        CommandFailure.usage(message)
    }
}

extension FileHandle {
    /// The first line of this handle (without its line break), read byte by byte so nothing
    /// after it is consumed; `nil` at once-empty input. At most `maximumBytes` are read.
    func readLine(maximumBytes: Int) -> String? {
        var bytes: [UInt8] = []
        while bytes.count < maximumBytes {
            guard let data = try? read(upToCount: 1), let byte = data.first else { break }
            if byte == 0x0A {
                return String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes[...], as: UTF8.self)
            }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
