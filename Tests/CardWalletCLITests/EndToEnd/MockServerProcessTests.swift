import CardModels
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `cardwallet mock-server` as a user runs it: its first line, its signals, its
/// data file across a `kill -9`, its options.
extension EndToEndTests {
    @Test func theFirstLineIsTheAddressThenTheDemoAccounts() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        try await ServerProcess.with(["--port", "0"], in: folder) { server in
            let base = try await server.baseURL()
            let first = try #require(server.stdoutLines.first)
            let match = try #require(first.wholeMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)\/v1/))
            #expect((Int(match.1) ?? 0) > 0, "--port 0 picked a real port")
            try await waitUntil(timeout: .seconds(30), "the banner") { server.stdout.contains("configuration:") }
            let lines = server.stdoutLines
            #expect(lines.dropFirst().first == "demo accounts:")
            #expect(lines.contains { $0.contains("demo@cardwallet.dev / demo1234") && $0.contains("12 cards") })
            #expect(lines.contains { $0.contains("minji@cardwallet.dev / minji1234") && $0.contains("3 cards") })
            #expect(lines.last == "configuration: built-in defaults")
            // The address is really served.
            let anonymous = try await HTTP.send("GET", base + "/cards")
            #expect(anonymous.status == 401)
            #expect(anonymous.json?["errorCode"] as? String == "E03")
            server.kill(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalLetsTheWriteInFlightFinishThenExitsCleanly(signal: Int32) async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        let dataFile = folder.path("wallet.json")
        // --latency holds each request long enough to signal while one is in flight.
        let arguments = ["--port", "0", "--data", dataFile, "--latency", "1s", "--log-level", "debug"]
        try await ServerProcess.with(arguments, in: folder) { server in
            let base = try await server.baseURL()
            let token = try await HTTP.login(base)
            let name = "Written during shutdown \(signal)"
            async let edit = HTTP.json(
                "PUT", base + "/card/demo-10", ["name": name], token: token, headers: ["If-Match": #""1""#])
            // The debug line says the server has the request; then the signal comes.
            try await waitUntil(timeout: .seconds(60), "the PUT to arrive") {
                server.stderr.contains("request received") && server.stderr.contains("method=PUT")
            }
            server.kill(signal)
            let reply = try await edit
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(try await server.waitForExit() == 0, "\(server.stderr)")
            #expect(server.terminationReason == .exit)
            #expect(server.stderr.contains("Mock server stopped"))
            #expect(!server.stderr.contains("Fatal error"))
            // The answered write is in the file, and the file is whole: a clean stop leaves no
            // write-ahead log beside it.
            let saved = try Data(contentsOf: URL(fileURLWithPath: dataFile))
            #expect(saved.range(of: Data(name.utf8)) != nil)
            #expect(saved.range(of: Data("demo1234".utf8)) == nil, "passwords are stored hashed")
            #expect(!FileManager.default.fileExists(atPath: dataFile + "-wal"))
        }
    }

    @Test func killDashNineBetweenWritesLosesNothingThatWasAnswered() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        let dataFile = folder.path("wallet.json")
        let arguments = ["--port", "0", "--data", dataFile]
        let answered = Answered()
        let token = try await ServerProcess.with(arguments, in: folder) { server in
            let base = try await server.baseURL()
            let token = try await HTTP.login(base)
            // Writers keep creating cards, each recording the ids the server confirmed.
            let writers = Task {
                await withTaskGroup(of: Void.self) { group in
                    for writer in 0..<4 {
                        group.addTask {
                            for index in 0..<10_000 {
                                guard
                                    let id = try? await HTTP.createCard(
                                        base, token: token, name: "Writer \(writer) #\(index)")
                                else { return }
                                answered.add(id)
                            }
                        }
                    }
                }
            }
            try await waitUntil(timeout: .seconds(120), "20 answered writes") { answered.count >= 20 }
            server.kill(SIGKILL)  // while writes are in flight
            _ = try await server.waitForExit()
            #expect(server.terminationReason == .uncaughtSignal)
            await writers.value
            return token
        }
        let confirmed = answered.ids
        #expect(confirmed.count >= 20)

        // A new server on the same file: it starts (the file is whole), keeps the session, and
        // has every card whose creation was answered.
        try await ServerProcess.with(arguments, in: folder) { server in
            let base = try await server.baseURL()
            var listed = Set<String>()
            var total = 1
            while listed.count < total {
                let page = try await HTTP.send("GET", base + "/cards?limit=200&offset=\(listed.count)", token: token)
                #expect(page.status == 200, "the access token survived the restart")
                let ids = ((page.data?["cards"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
                total = page.data?["total"] as? Int ?? 0
                guard page.status == 200, !ids.isEmpty else { break }
                listed.formUnion(ids)
            }
            #expect(confirmed.isSubset(of: listed), "lost: \(confirmed.subtracting(listed))")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains { $0.hasPrefix(".wallet.json.new-") }, "leftovers of the crash are removed")
            server.kill(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
    }

    @Test func configAndLogLevelGivenAfterTheSubcommandAreUsed() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        try folder.write(#"{"cards": []}"#, to: "none.json")
        let config = try MockServerOptionsTests.configurationFile(folder)
        try await ServerProcess.with(["--config", config, "--log-level", "error"], in: folder) { server in
            let base = try await server.baseURL()
            try await waitUntil(timeout: .seconds(30), "the banner") { server.stdout.contains("configuration:") }
            #expect(server.stdout.contains("file@cardwallet.dev / file-password"))
            #expect(!server.stdout.contains("demo@cardwallet.dev"))
            _ = try await HTTP.login(base, email: "file@cardwallet.dev", password: "file-password")
            server.kill(SIGINT)
            #expect(try await server.waitForExit() == 0)
            #expect(
                !server.stderr.contains(" info "), "--log-level error keeps the request log quiet: \(server.stderr)")
        }
    }

    @Test func helpAnywhereOnTheLineShowsTheHelp() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        for arguments in [
            ["mock-server", "--help"], ["mock-server", "--port", "0", "--help"], ["mock-server", "--bogus", "-h"],
        ] {
            let result = try await CLIProcess(arguments, environment: [:], input: nil, scratch: folder).finish()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("OVERVIEW: Run the mock card server"), "\(result)")
            #expect(result.stdout.contains("--fail-rate <share>"))
        }
        let wrong = try await CLIProcess(["mock-server", "--bogus"], environment: [:], input: nil, scratch: folder)
            .finish()
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("Unknown option '--bogus'"))
        #expect(wrong.stdout.isEmpty)
    }

    @Test func aDataFileThatCannotBeUsedStopsTheStartWithAMessage() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        let corrupt = try folder.write("garbage", to: "corrupt.json")
        let empty = try folder.write("", to: "empty.db")
        for (arguments, message) in [
            (["--data", folder.path], "it is a folder"),
            (["--data", corrupt], "it is not a mock server data file"),
            (["--data", empty], "it is empty"),
            (["--data", folder.path("missing/wallet.json")], "cannot create a file beside it"),
        ] {
            let server = try ServerProcess(["--port", "0"] + arguments, in: folder)
            #expect(try await server.waitForExit() == 1)
            #expect(server.stderr.contains(message), "\(arguments): \(server.stderr)")
            #expect(server.stdout.isEmpty)
            #expect(!server.stderr.contains("Fatal error"))
        }
        #expect(try String(contentsOfFile: corrupt, encoding: .utf8) == "garbage", "a bad file is never overwritten")
    }

    @Test func environmentVariablesSetWhatNoOptionSetsAndTheBannerSaysSo() async throws {
        let folder = try TemporaryFolder("mock-server")
        defer { folder.remove() }
        let environment = [
            "CARDWALLET_MOCK_ACCESS_TOKEN_TTL": "45s", "CARDWALLET_MOCK_PORT": "1", "CARDWALLET_MOCK_ADMIN": "true",
        ]
        try await ServerProcess.with(["--port", "0", "--no-admin"], in: folder, environment: environment) { server in
            let base = try await server.baseURL()
            try await waitUntil(timeout: .seconds(30), "the banner") { server.stdout.contains("configuration:") }
            #expect(server.stdout.contains("tokens: access 45s, refresh 1d"))
            #expect(server.stdoutLines.last == "configuration: built-in defaults with CARDWALLET_MOCK_ACCESS_TOKEN_TTL")
            #expect(!server.stdout.contains("admin endpoints"), "--no-admin beats CARDWALLET_MOCK_ADMIN")
            #expect(try await HTTP.send("GET", base + "/_admin/stats").status == 404)
            server.kill(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
        let bad = try ServerProcess(["--port", "0"], in: folder, environment: ["CARDWALLET_MOCK_LATENCY": "soon"])
        #expect(try await bad.waitForExit() == 64)
        #expect(
            bad.stderr.contains("The setting latency (from CARDWALLET_MOCK_LATENCY) must be a duration"),
            "\(bad.stderr)")
    }
}

/// Ids the server confirmed, collected from several writers.
final class Answered: Sendable {
    private let storage = Mutex<Set<String>>([])
    func add(_ id: String) { storage.withLock { _ = $0.insert(id) } }
    var count: Int { storage.withLock { $0.count } }
    var ids: Set<String> { storage.withLock { $0 } }
}
