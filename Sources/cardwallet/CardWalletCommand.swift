import ArgumentParser
import CardAPI
import Foundation
import Networking
import TokenStore

/// `cardwallet`: the terminal business-card wallet, its mock server and its scripting commands.
@main
struct CardWalletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardwallet",
        abstract: "A keyboard-driven terminal wallet for your business cards.",
        discussion: """
            Without a subcommand, opens the wallet on the server: on your cards when you are logged in \
            there, else on the login screen with the server filled in. Press ? in it for every key.
            Try it with no server of your own: cardwallet demo.
            """,
        subcommands: [DemoCommand.self, MockServerCommand.self]
    )

    /// The server (a stand-in until the shared client options land).
    @Option(help: ArgumentHelp("The card server's base URL. (default: http://127.0.0.1:8080/v1)", valueName: "url"))
    var server: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let text = server ?? environment["CARDWALLET_SERVER"] ?? "http://127.0.0.1:8080/v1"
        let url: URL
        do {
            url = try CardAPIConfiguration.serverURL(text)
        } catch {
            throw ValidationError(error.description)
        }
        let directory = try? StateDirectory(environment: environment)
        let store: TokenStore
        do {
            store = try TokenStore(environment: environment)
        } catch {
            FileHandle.standardError.write(Data("cardwallet: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        try await WalletLauncher.run(
            configuration: CardAPIConfiguration(server: url), tokenStore: store, stateDirectory: directory,
            transport: LiveTransport(), logger: TUILogger.make(), email: nil)
    }
}
