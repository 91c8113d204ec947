import AsyncHTTPClient
@_spi(Benchmarks) import CardMockServer
import CardModels
import Foundation
import NIOHTTP1

/// One mock server under the write load: a store format, a wallet of `cards` seed cards in a
/// `--data` file, logged in as the demo user.
struct WriteServer: Sendable {
    /// How the table names the store.
    let store: String
    /// The seed cards in the wallet.
    let cards: Int
    /// The running server.
    let server: RunningMockServer
    /// `Authorization: Bearer …` (never printed).
    let headers: HTTPHeaders
    /// The seed cards' ids: what updates and image changes pick from.
    let seedIDs: [String]
    /// The `--data` file.
    let dataFile: String

    /// `http://127.0.0.1:PORT/v1`.
    var base: String { server.baseURLString }

    /// Starts a server keeping its data in `format` at `folder/<name>`, seeded with `cards`
    /// cards for the demo user, and logs in.
    ///
    /// - Throws: ``BenchError`` when it does not start or the login fails.
    static func start(
        store: String, format: DataFileFormat, cards: Int, folder: TemporaryFolder, client: HTTPClient
    ) async throws -> WriteServer {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        configuration.accessTokenTTL = .hours(12)
        guard let user = configuration.users.first, let password = user.password else {
            throw BenchError("the test configuration has no user with a password")
        }
        configuration.seedCards = seedCards(cards, owner: user.email)
        let name = "\(store.split(separator: " ").first ?? "store")-\(cards)-\(UUID().uuidString.prefix(6))"
        configuration.dataFile = folder.path + "/" + name.lowercased()
        let server: RunningMockServer
        do {
            server = try await MockServer.start(configuration: configuration, dataFileFormat: format)
        } catch {
            throw BenchError("the mock server (\(store), \(cards) cards) did not start: \(error)")
        }
        do {
            var headers = HTTPHeaders()
            let token = try await ServerPair.logIn(server.baseURLString, user.email, password, client: client)
            headers.add(name: "Authorization", value: "Bearer " + token)
            return WriteServer(
                store: store, cards: cards, server: server, headers: headers,
                seedIDs: configuration.seedCards.map(\.id), dataFile: configuration.dataFile ?? "")
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `count` plausible cards: every field a person fills in, a bio, and every twentieth card
    /// with a 2 kB image.
    static func seedCards(_ count: Int, owner: String) -> [SeedCard] {
        (0..<count).map { index in
            let fields = CardFields(
                name: "Person \(index)", title: "Engineer \(index % 13)", company: "Company \(index % 97)",
                department: "Team \(index % 7)", email: "person\(index)@example.com",
                phone: "+1 555 \(String(format: "%04d", index % 10_000))", website: "https://example.com/\(index)",
                address: "\(index) Example Street, Springfield",
                bio: "Met at the conference in \(2000 + index % 25); works on storage engines and likes long walks.",
                tags: ["bench", "tag\(index % 5)"])
            let image =
                index % 20 == 0
                ? SeedImage(contentType: "image/png", data: WriteLoad.png(size: 2048, mark: index)) : nil
            return SeedCard(id: String(format: "w-%05d", index), owner: owner, fields: fields, image: image)
        }
    }

    /// The bytes of the data file and its write-ahead log, if any.
    var fileBytes: Int {
        [dataFile, dataFile + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }
}
