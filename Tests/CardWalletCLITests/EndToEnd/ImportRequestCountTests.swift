import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

/// Issue 30: an import matches against the wallet through the cache and the server's batched
/// reads (`GET /cards/whole`), never one request per wallet card.
@Suite struct ImportRequestCountTests {
    static let walletSize = 1_500

    static func threeCards(_ tag: String) -> String {
        (1...3).map {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:New \(tag) \($0)\r\nEMAIL:new\(tag)\($0)@import.example\r\nEND:VCARD\r\n"
        }
        .joined()
    }

    @Test func importingThreeCardsIntoALargeWalletSendsAHandfulOfRequests() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.seedCards = (1...Self.walletSize).map {
            SeedCard(
                id: String(format: "bulk-%05d", $0), owner: CLIWorld.email,
                fields: CardFields(name: "Person \($0)", email: "p\($0)@bulk.example"))
        }
        try await CLIWorld.with(configuration) { world in
            try await world.login()
            let first = world.folder.path("first.vcf")
            try Self.threeCards("a").write(toFile: first, atomically: true, encoding: .utf8)
            let before = world.server.statistics
            let cold = try await world.run("import", first)
            #expect(cold.status == 0, "\(cold)")
            #expect(cold.stdout.contains("created 3"), "\(cold)")
            let after = world.server.statistics
            let coldGets = after.count("GET /card/{cardId}") - before.count("GET /card/{cardId}")
            let coldTotal = after.total - before.total
            // With nothing cached: the list in pages of 200 (8), the whole cards in batches of
            // 100 (15), the 3 creations — not 1,500 GETs.
            #expect(coldGets == 0, "no card read one by one")
            #expect(coldTotal <= 8 + 15 + 3 + 2, "sent \(coldTotal) requests")

            let second = world.folder.path("second.vcf")
            try Self.threeCards("b").write(toFile: second, atomically: true, encoding: .utf8)
            let warm = try await world.run("import", second)
            #expect(warm.status == 0, "\(warm)")
            let warmTotal = world.server.statistics.total - after.total
            // The cache holds every whole card now: the list once, and the 3 creations (and
            // the 3 cards the first import made, read in one batch).
            #expect(warmTotal <= 8 + 1 + 3 + 2, "sent \(warmTotal) requests")
        }
    }
}
