import CardMockServer
import Foundation
import Networking
import Testing
import TokenStore

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndTests {
    /// Two accounts stored for one server, no record of which is the default (a token file of
    /// the cardwallet before accounts): the commands say how to choose, with the exit status for
    /// "log in"; `logout --all` logs both out.
    @Test func severalAccountsAtOneServerAreExplainedAndAllLoggedOut() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let store = TokenStore(path: world.tokenFile)
            let now = Date()
            try await store.save(
                TokenItem(
                    server: world.server.baseURLString, account: "minji@cardwallet.dev", accessToken: "cwa_unknown_1",
                    accessTokenExpiresAt: now + 300, refreshToken: "cwr_unknown_1", refreshTokenExpiresAt: now + 900))
            // The file of an older cardwallet: token pairs only, no accounts recorded.
            let items = try store.items()
            try FileManager.default.removeItem(atPath: world.tokenFile)
            try await writeVersionOne(items, to: world.tokenFile)

            let list = try await world.run("list")
            #expect(list.status == 64, "\(list)")
            #expect(list.stderr.contains("demo@cardwallet.dev, minji@cardwallet.dev"), "\(list)")
            #expect(list.stderr.contains("--account NAME"), "\(list)")
            let named = try await world.run("--account", "demo@cardwallet.dev", "list")
            #expect(named.status == 0, "\(named)")

            let logout = try await world.run("logout", "--all")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stdout.contains("Logged out demo@cardwallet.dev at"), "\(logout)")
            #expect(logout.stdout.contains("Logged out minji@cardwallet.dev here"), "\(logout)")  // unknown tokens
            #expect(try store.items().isEmpty)
            #expect(try store.accountRecords().isEmpty)
        }
    }

    /// Writes `items` as a version 1 token file (what the cardwallet before accounts wrote).
    private func writeVersionOne(_ items: [TokenItem], to path: String) async throws {
        let formatter = ISO8601DateFormatter()
        let objects: [[String: Any]] = items.map {
            [
                "server": $0.server, "account": $0.account, "accessToken": $0.accessToken,
                "accessTokenExpiresAt": formatter.string(from: $0.accessTokenExpiresAt),
                "refreshToken": $0.refreshToken,
                "refreshTokenExpiresAt": formatter.string(from: $0.refreshTokenExpiresAt),
            ]
        }
        let data = try JSONSerialization.data(withJSONObject: ["version": 1, "items": objects])
        #expect(FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]))
    }

    /// `logout` with a token file it cannot read says so, exits 1 and leaves the file alone.
    @Test func logoutWithACorruptTokenFileSaysSoAndKeepsIt() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let garbage = Data("{not json".utf8)
            try garbage.write(to: URL(fileURLWithPath: world.tokenFile))
            let logout = try await world.run("logout")
            #expect(logout.status == 1, "\(logout)")
            #expect(logout.stderr.contains("token store unreadable at \(world.tokenFile)"), "\(logout)")
            #expect(!logout.stdout.contains("nothing to do"), "\(logout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: world.tokenFile)) == garbage)
        }
    }

    /// Every command refuses a token file others can read, naming its path, its mode and the
    /// fix, and sends nothing: not the password of a login, not a token of a list.
    @Test func anOpenTokenFileIsRefusedWithTheFixAndNothingIsSent() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(chmod(world.tokenFile, 0o644) == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: world.tokenFile))
            let requestsBefore = world.server.statistics.total
            for arguments in [["list"], ["show", "demo-01"], ["logout"], ["status"]] {
                let result = try await world.run(arguments)
                #expect(result.status == 1, "\(result)")
                #expect(result.allOutput.contains("mode 0644"), "\(result)")
                #expect(result.allOutput.contains("chmod 600 \(world.tokenFile)"), "\(result)")
            }
            let login = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin", input: CLIWorld.password + "\n")
            #expect(login.status == 1, "\(login)")
            #expect(login.stderr.contains("chmod 600"), "\(login)")
            #expect(world.server.statistics.total == requestsBefore)
            #expect(try Data(contentsOf: URL(fileURLWithPath: world.tokenFile)) == before)
        }
    }

    /// Output that cannot be written (a full disk) is a failure, not a silent success; a reader
    /// that closes the pipe early is not.
    @Test func aFullDiskFailsTheCommand() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let full = try CLIProcess(
                ["list", "--json"], environment: world.environment, input: nil, scratch: world.folder,
                outputPath: "/dev/full")
            let result = try await full.finish()
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("could not write the output: no space left on device"), "\(result)")
        }
    }

    /// A password line longer than any password is refused, not cut short and sent.
    @Test func anOverlongPasswordLineIsRefusedAndNothingIsSent() async throws {
        try await CLIWorld.with { world in
            let requests = world.server.statistics.total
            let result = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin",
                input: String(repeating: "p", count: 5000) + "\n")
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("longer than 4096 bytes"), "\(result)")
            #expect(world.server.statistics.total == requests)
        }
    }
}
