import ArgumentParser
import CardBackend
import CardModels
import CardVCard
import CardWalletLive
import Foundation

/// `cardwallet query TEXT`: address lookup for mutt and aerc.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Look up email addresses for mutt, neomutt and aerc.",
        discussion: """
            Prints one status line, then email<TAB>name<TAB>company for every email of every card \
            whose name, company, title or email contains TEXT (ignoring case): the format of mutt's \
            query_command and aerc's address-book-cmd. A card with several emails (kept from an \
            import) gives one line per email, its main one first; cards without an email are left out.

            In ~/.muttrc (or neomuttrc):
              set query_command = "cardwallet query %s"
            In aerc.conf's [compose] section (aerc reads every line as an address, so the status \
            line is left out, as with khard):
              address-book-cmd = cardwallet query --remove-first-line %s

            With --book all, every address book of every stored account is looked up.

            When the server cannot be reached (or with --offline) the cards come from the local \
            card cache: the status line ends with (offline — cards as of <time>) and that is also \
            said on standard error; a card cached only as a list entry gives its main email.

            Exit status: 0 found (also offline from the cache); 1 nothing found; 3 log in first; \
            6 server unreachable and nothing cached.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The text.
    @Argument(help: ArgumentHelp("What to look for.", valueName: "text"))
    var text: String

    /// `--remove-first-line`.
    @Flag(name: .customLong("remove-first-line"), help: "Leave out the status line (for aerc, like khard's option).")
    var removeFirstLine = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, allowsAllBooks: true) { context in
            var cards: [Card] = []
            var offlineAsOf: Date?
            if context.allBooks {
                // Every book of every account: each book's matches, a book at a time.
                for book in await context.shelf.books() {
                    guard let wallet = try? await context.shelf.wallet(for: book),
                        let found = try? await matches(in: wallet, context.mode)
                    else { continue }
                    cards += found.0
                    if let asOf = found.1 { offlineAsOf = min(offlineAsOf ?? asOf, asOf) }
                }
            } else {
                (cards, offlineAsOf) = try await matches(in: await context.wallet(), context.mode)
            }
            // The mail programs show the status line, and may paint standard error over their screen.
            CommandContext.sayOffline(offlineAsOf)
            let offline = offlineAsOf.map { " (offline — cards as of \(OfflineTime.text($0)))" } ?? ""
            let lines = cards.flatMap { card in
                Self.emails(of: card.fields).map { email in
                    [email, card.fields.name, card.fields.company ?? ""].map(Self.cell).joined(separator: "\t")
                }
            }
            if !removeFirstLine {
                Console.out(
                    "cardwallet: \(lines.count) address\(lines.count == 1 ? "" : "es") for “\(TerminalText.escaped(text))”\(offline)\n"
                )
            }
            if lines.isEmpty { throw ExitCode(CLIExitCode.failure) }
            Console.out(lines.map { $0 + "\n" }.joined())
        }
    }

    /// The cards of `wallet` matching the text, whole when they can be (kept emails need the
    /// whole card), and when the server last confirmed them when the cache answered.
    private func matches(in wallet: CachedWallet, _ mode: WalletReadMode) async throws -> ([Card], Date?) {
        let matches = try await wallet.matching(text, mode)
        if matches.offlineAsOf == nil {
            let whole = try await wallet.wholeCards(ids: matches.value.map(\.id), .online)
            return (whole.value, whole.offlineAsOf)
        }
        // Offline, a card the cache holds only as a summary still gives its main email.
        let cards = zip(matches.value, wallet.cachedCards(ids: matches.value.map(\.id))).map { summary, whole in
            whole ?? Self.card(from: summary)
        }
        return (cards, matches.offlineAsOf)
    }

    /// A card with the fields of its list entry (name, title, company, email).
    static func card(from summary: CardSummary) -> Card {
        Card(
            id: summary.id,
            fields: CardFields(
                name: summary.name, title: summary.title, company: summary.company, email: summary.email),
            createdAt: summary.updatedAt, updatedAt: summary.updatedAt, revision: summary.revision)
    }

    /// The card's email, then the other emails it keeps from an import.
    static func emails(of fields: CardFields) -> [String] {
        var emails = fields.email.map { [$0] } ?? []
        for line in fields.vcardProperties where line.uppercased().contains("EMAIL") {
            guard let property = ContentLine.property(line), property.key == "EMAIL" else { continue }
            var address = property.text.trimmingCharacters(in: .whitespaces)
            if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
            if CardFormat.isEmail(address), !emails.contains(where: { $0.lowercased() == address.lowercased() }) {
                emails.append(address)
            }
        }
        return emails
    }

    /// A cell of the tab-separated line: control characters (tabs and line breaks included)
    /// made visible, so a card cannot break the format or drive the terminal.
    static func cell(_ text: String) -> String { TerminalText.escaped(text) }
}
