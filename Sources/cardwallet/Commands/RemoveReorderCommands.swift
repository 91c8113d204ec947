import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI

/// `cardwallet rm <id>`: deletes a card, after asking.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a card.",
        discussion: """
            Asks for confirmation at the terminal, showing the card's name, unless --yes is given. \
            Without a terminal on standard input (a script, a pipe) it refuses to delete unless \
            --yes is given, so nothing is deleted by accident. A deleted card cannot be restored.

            Examples:
              cardwallet rm card_3kVq
              cardwallet rm card_3kVq --yes
              cardwallet rm card_3kVq --yes --if-version 4

            Exit status: 0 deleted; 1 not confirmed; 3 log in first; 4 no such card; 5 the card \
            changed since version N (--if-version); 6 server unreachable; 64 no terminal and no --yes.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card.
    @Argument(
        help: ArgumentHelp(
            "The card: its id, the start of it (as `list` shows it), or a search that finds only it.",
            valueName: "card"))
    var id: String

    /// `--yes`.
    @Flag(name: [.short, .long], help: "Delete without asking (needed when there is no terminal).")
    var yes = false

    /// `--if-version`.
    @Option(
        name: .customLong("if-version"),
        help: ArgumentHelp(
            "Delete only if the card is still at this version (as `show` prints it); else exit 5.",
            valueName: "version"))
    var ifVersion: String?

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let (wallet, id, _) = try await context.named(self.id)
            if !yes {
                guard TerminalPrompt.standardInputIsTerminal, let terminal = TerminalPrompt.openControllingTerminal()
                else {
                    throw CommandFailure.usage(
                        "Refusing to delete card \(TerminalText.escaped(id)) without confirmation: there is no terminal "
                            + "to ask on. Pass --yes to delete it.")
                }
                defer { terminal.close() }
                let card = try await wallet.backend.card(id: id)
                let question =
                    "Delete the card “\(TerminalText.escaped(card.fields.name))” (\(TerminalText.escaped(id)))?"
                guard try terminal.confirm(question) else {
                    throw CommandFailure("Nothing was deleted.")
                }
            }
            do {
                _ = try await wallet.delete(id: id, revision: ifVersion.map(CardRevision.init(rawValue:)))
            } catch let error as any BackendFailure where error.isConflict {
                throw CommandFailure(
                    "Card \(TerminalText.escaped(id)) is no longer at version \(TerminalText.escaped(ifVersion ?? "0"))"
                        + "\(error.codeNote), so it was not deleted. Check it with `cardwallet show`, then run the command again.",
                    status: CLIExitCode.conflict)
            }
            Console.out("Deleted \(TerminalText.escaped(id)).\n")
        }
    }
}

/// `cardwallet reorder <id>…`: moves cards to the front of the wallet.
struct ReorderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reorder",
        abstract: "Move cards to the front of the wallet, in the order given.",
        discussion: """
            The ids given go first, in that order; every other card keeps its place relative to \
            the others, after them. So naming every card sets the whole order, and naming one \
            card moves it to the top. An id may be given once; unknown ids change nothing.

            Examples:
              cardwallet reorder card_b                  # card_b first, the rest as before
              cardwallet reorder card_c card_a card_b    # the whole order of a three-card wallet
              cardwallet reorder $(cardwallet list --json | jq -r 'reverse | .[].id')

            Exit status: 0 reordered; 3 log in first; 4 an id is not a card of yours; 5 the wallet \
            changed meanwhile (re-run); 6 server unreachable; 64 an id given twice.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The ids to move to the front.
    @Argument(help: ArgumentHelp("Card ids, in their new order, to put first.", valueName: "id"))
    var ids: [String]

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        guard !ids.isEmpty else { throw ValidationError("Give at least one card id.") }
        var seen = Set<String>()
        for id in ids where !seen.insert(id).inserted {
            throw ValidationError("The id \(TerminalText.escaped(id)) is given twice; give each card once.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let wallet = await context.wallet()
            let current = try await wallet.serverList().map(\.id)
            let order = try Self.order(moving: ids, toFrontOf: current)
            guard order != current else {
                Console.out("The wallet is already in that order.\n")
                return
            }
            if !context.backend.capabilities.keepsOrder {
                Console.warning(
                    "this \(context.backend.kind) server keeps no order of its own: the wallet's order is kept on "
                        + "this computer only.")
            }
            do {
                _ = try await wallet.reorder(order)
            } catch let error as any BackendFailure where error.isInvalid {
                throw CommandFailure(
                    "The wallet changed while it was being reordered (a card was added or deleted), so nothing "
                        + "was changed. Run the command again.",
                    status: CLIExitCode.conflict)
            }
            Console.out("Moved \(ids.count) of \(order.count) cards to the front.\n")
        }
    }

    /// The new wallet order: `front` first, then the rest of `current` in its order.
    ///
    /// - Throws: ``CommandFailure`` (not found) naming the ids that are not in `current`.
    static func order(moving front: [String], toFrontOf current: [String]) throws(CommandFailure) -> [String] {
        let known = Set(current)
        let unknown = front.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            let list = unknown.map(TerminalText.escaped).joined(separator: ", ")
            throw CommandFailure(
                "No such card: \(list) (not in your wallet). Nothing was changed.", status: CLIExitCode.notFound)
        }
        let moved = Set(front)
        return front + current.filter { !moved.contains($0) }
    }
}
