import CardModels
import Foundation
import Testing

@testable import CardMockServer

@Suite struct CardBookTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func book() -> CardBook {
        var book = CardBook()
        for (index, name) in ["Ada", "김민준", "ＡＢＣ Corp Person", "Zoë"].enumerated() {
            let card = APICard(
                id: "c\(index)", fields: CardFields(name: name, company: index == 3 ? "Straße GmbH" : nil),
                createdAt: now, updatedAt: now)
            book.insert(StoredCard(ownerID: "u1", card: card))
        }
        book.insert(
            StoredCard(
                ownerID: "u2", card: APICard(id: "x", fields: CardFields(name: "Other"), createdAt: now, updatedAt: now)
            ))
        return book
    }

    @Test func pagesFollowTheWalletOrder() {
        let book = book()
        let page = book.page(ownerID: "u1", offset: 1, limit: 2, query: "")
        #expect(page.cards.map(\.id) == ["c1", "c2"])
        #expect(page.total == 4)
        #expect(page.offset == 1 && page.limit == 2)
        #expect(book.page(ownerID: "u1", offset: 10, limit: 2, query: "").cards.isEmpty)
        #expect(book.page(ownerID: "u2", offset: 0, limit: 50, query: "").cards.map(\.id) == ["x"])
    }

    @Test(arguments: [
        ("abc", ["c2"]), ("ａｄａ", ["c0"]), ("민준", ["c1"]), ("STRASSE", ["c3"]), ("other", []),
        ("  ", ["c0", "c1", "c2", "c3"]),
    ])
    func searchIgnoresCaseAndWidth(query: String, ids: [String]) {
        #expect(book().page(ownerID: "u1", offset: 0, limit: 50, query: query).cards.map(\.id) == ids)
    }

    @Test func otherUsersCardsAreInvisible() {
        var book = book()
        #expect(book.card("x", ownerID: "u1") == nil)
        let update = book.update("x", ownerID: "u1", fields: CardFields(name: "Mine"), precondition: .any, now: now)
        #expect(update == .failure(.notFound))
        let delete = book.delete("x", ownerID: "u1", precondition: .any)
        #expect(delete == .failure(.notFound))
        #expect(book.card("x", ownerID: "u2")?.card.fields.name == "Other")
    }

    @Test func updateChecksTheVersionAndBumpsIt() throws {
        var book = book()
        let later = now.addingTimeInterval(60)
        let stale = book.update(
            "c0", ownerID: "u1", fields: CardFields(name: "Ada L"), precondition: .versions([2]), now: later)
        #expect(stale == .failure(.versionConflict(current: 1)))
        let updated = try book.update(
            "c0", ownerID: "u1", fields: CardFields(name: "Ada L"), precondition: .versions([1]), now: later
        ).get()
        #expect(updated.version == 2)
        #expect(updated.updatedAt == later)
        #expect(updated.createdAt == now)
        // The same fields again change nothing, not even the version.
        let same = try book.update(
            "c0", ownerID: "u1", fields: CardFields(name: "Ada L"), precondition: .any, now: later.addingTimeInterval(5)
        ).get()
        #expect(same == updated)
    }

    @Test func reorderMustListEveryCardExactlyOnce() throws {
        var book = book()
        #expect(try book.reorder(ownerID: "u1", to: ["c3", "c2", "c1", "c0"]).get() == ["c3", "c2", "c1", "c0"])
        #expect(book.page(ownerID: "u1", offset: 0, limit: 50, query: "").cards.map(\.id) == ["c3", "c2", "c1", "c0"])

        guard case .failure(.badOrder(let missing)) = book.reorder(ownerID: "u1", to: ["c3", "c2", "c1"]) else {
            Issue.record("a missing card was accepted")
            return
        }
        #expect(missing.contains("leaves out cards of your wallet: c0"))
        guard case .failure(.badOrder(let repeated)) = book.reorder(ownerID: "u1", to: ["c3", "c2", "c1", "c0", "c0"])
        else {
            Issue.record("a repeated card was accepted")
            return
        }
        #expect(repeated.contains("more than once: c0"))
        guard
            case .failure(.badOrder(let foreign)) = book.reorder(
                ownerID: "u1", to: ["c3", "c2", "c1", "c0", "x", "../x"])
        else {
            Issue.record("someone else's card was accepted")
            return
        }
        #expect(foreign.contains("not in your wallet: x, (malformed id)"))
        // Nothing changed after the refusals.
        #expect(book.walletOrder(ownerID: "u1") == ["c3", "c2", "c1", "c0"])
    }

    @Test func deleteRemovesFromTheWallet() {
        var book = book()
        let stale = book.delete("c1", ownerID: "u1", precondition: .versions([9]))
        #expect(stale == .failure(.versionConflict(current: 1)))
        let deleted = book.delete("c1", ownerID: "u1", precondition: .versions([1]))
        #expect((try? deleted.get())?.id == "c1")
        #expect(book.card("c1", ownerID: "u1") == nil)
        #expect(book.walletOrder(ownerID: "u1") == ["c0", "c2", "c3"])
        let again = book.delete("c1", ownerID: "u1", precondition: .any)
        #expect(again == .failure(.notFound))
    }

    @Test(arguments: [
        (#""3""#, VersionPrecondition.versions([3])), ("*", .any), (#""3", "4""#, .versions([3, 4])),
        (#"W/"3""#, .versions([])), (#""abc""#, .versions([])),
    ])
    func ifMatchParsing(header: String, expected: VersionPrecondition) {
        #expect(VersionPrecondition(ifMatch: header) == expected)
    }

    @Test(arguments: ["3", "", "abc", "W/3"])
    func ifMatchWithoutAnEntityTagIsRefused(header: String) {
        #expect(VersionPrecondition(ifMatch: header) == nil)
    }
}
