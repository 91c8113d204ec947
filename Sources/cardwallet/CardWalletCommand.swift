import ArgumentParser

/// `cardwallet`: the terminal business-card wallet, its mock server and its scripting commands.
@main
struct CardWalletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardwallet",
        abstract: "A keyboard-driven terminal wallet for your business cards.",
        subcommands: [
            MockServerCommand.self,
            LoginCommand.self, LogoutCommand.self, StatusCommand.self,
            ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self,
            RemoveCommand.self, ReorderCommand.self,
        ]
    )

    func run() async throws {
        print("cardwallet: the TUI is not built yet")
    }
}
