import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation

/// `cardwallet login`: logs in and stores the tokens for the other commands.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to the card server or a CardDAV server, for the other commands.",
        discussion: """
            The password is asked at the terminal without echo, or read from standard input with \
            --password-stdin (the first line; for scripts). On the card API it is never stored, \
            logged or shown: only the server's tokens are kept, in the token file (see \
            `cardwallet status`). Logging in as another account at the same server logs the \
            previous one out.

            The kind of server is found by asking it. A CardDAV server (Radicale, Nextcloud, \
            Fastmail, iCloud…) has no tokens: its user name (--email takes it) and password — an \
            app password where the provider has them — are kept in the token file instead \
            (mode 0600, not encrypted), sent only to that server, only over https or to this \
            computer. The login finds the account's address books (from the address given, or \
            /.well-known/carddav) and uses the one --book names, else the first; `cardwallet \
            books` lists them. Give the same --server (or CARDWALLET_SERVER) to the other commands.

            Examples:
              cardwallet login --email demo@cardwallet.dev
              printf '%s\\n' "$PASSWORD" | cardwallet login --email demo@cardwallet.dev --password-stdin
              cardwallet login --server http://127.0.0.1:9000/v1 --email minji@cardwallet.dev
              cardwallet login --server https://dav.example.com/ --email alice --book work

            Exit status: 0 logged in; 3 wrong email or password; 6 server unreachable; 64 usage \
            error (no terminal for the prompts, say, or a server address that is not the API's base \
            URL, which usually ends in /v1); 130 cancelled with Ctrl-C.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--email`.
    @Option(help: ArgumentHelp("The account's email. Asked at the terminal when not given.", valueName: "email"))
    var email: String?

    /// `--password-stdin`.
    @Flag(
        name: .customLong("password-stdin"),
        help: "Read the password from the first line of standard input instead of asking at the terminal.")
    var passwordStdin = false

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if passwordStdin, (email ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--password-stdin needs --email: there is no terminal to ask for it on.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let credentials = try readCredentials()
            // The session logs out any other account stored for this server (one per server).
            let report = try await context.accounts.logIn(account: credentials.email, password: credentials.password)
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
            if let note = report.note { Console.note(note) }
            for other in report.othersWaiting {
                Console.warning(
                    "\(other.changes) change\(other.changes == 1 ? "" : "s") made offline as "
                        + "\(TerminalText.escaped(other.account)) \(other.changes == 1 ? "is" : "are") kept on this "
                        + "computer, unsent: \(other.changes == 1 ? "it is" : "they are") sent when "
                        + "\(TerminalText.escaped(other.account)) logs in here again (`cardwallet sync`).")
            }
            // Changes this account made offline before its session ended go now.
            if let sent = await context.accounts.sendWaitingChanges() {
                Console.out(
                    "Sent \(sent.sent) change(s) made offline"
                        + (sent.pending + sent.refused.count > 0
                            ? "; \(sent.pending + sent.refused.count) still wait (`cardwallet sync`)" : "") + ".\n")
            }
        }
    }

    /// The email and password, from the options, standard input or the terminal.
    private func readCredentials() throws -> (email: String, password: String) {
        if passwordStdin {
            let email = email ?? ""
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
            return (email, password)
        }
        guard let terminal = TerminalPrompt.openControllingTerminal() else {
            throw usage(
                "There is no terminal to ask for the password on. Use --email with --password-stdin in scripts.")
        }
        defer { terminal.close() }
        var address = email ?? ""
        while address.trimmingCharacters(in: .whitespaces).isEmpty {
            address = try terminal.readLine(prompt: "Email: ")
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
