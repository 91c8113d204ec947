import CardModels
import Foundation
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// A refresh hands out the new access token as soon as the server's answer is parsed and saves
/// the pair meanwhile: reads go out at once and are answered after the save; changes wait for
/// it; a failed save fails every call that used the new token, as it did when the save came first.
@Suite struct RefreshSaveTests {
    /// The outcomes of `reads` `card(id:)` calls and one `deleteCard(id:)`, all started at once.
    private struct Outcomes: Sendable {
        var reads: [Result<Card, CardAPIError>] = []
        var delete: Result<Void, CardAPIError>?
    }

    /// Reads card `readID`, or each its own card when `nil`; deletes `card_gone`.
    private func readsAndADelete(
        _ client: CardAPIClient, reads: Int, readID: String? = nil, finished: Counter
    ) async -> Outcomes {
        await withTaskGroup(of: Outcomes.self) { group in
            for index in 0..<reads {
                group.addTask {
                    let result: Result<Card, CardAPIError>
                    do throws(CardAPIError) {
                        result = .success(try await client.card(id: readID ?? "card_\(index)"))
                    } catch {
                        result = .failure(error)
                    }
                    finished.increment()
                    return Outcomes(reads: [result])
                }
            }
            group.addTask {
                let result: Result<Void, CardAPIError>
                do throws(CardAPIError) {
                    result = .success(try await client.deleteCard(id: "card_gone"))
                } catch {
                    result = .failure(error)
                }
                finished.increment()
                return Outcomes(delete: result)
            }
            var all = Outcomes()
            for await outcome in group {
                all.reads += outcome.reads
                if let delete = outcome.delete { all.delete = delete }
            }
            return all
        }
    }

    /// Holds the refreshed pair's save: `held` opens when the save is reached, and the save
    /// goes on when the test opens `saving`.
    static func holdingTheSave(of client: CardAPIClient) async -> (held: Gate, saving: Gate) {
        let (held, saving) = (Gate(), Gate())
        await client.session.setBeforeSavingRefreshedPair {
            held.open()
            await saving.wait()
        }
        return (held, saving)
    }

    @Test func readsUseTheNewTokenDuringTheSaveAndAreAnsweredAfterIt() async throws {
        try await Harness.with(connectionsPerHost: 8) { harness in
            let old = try await harness.seedTokens()  // fresh by our clock; the server disagrees
            await harness.fake.expireAccessTokens()
            await harness.fake.set(storeToCheck: harness.store)
            let client = harness.client()
            let (held, saving) = await Self.holdingTheSave(of: client)
            let finished = Counter()

            let running = Task { await readsAndADelete(client, reads: 20, finished: finished) }
            await held.wait()
            // Every read goes out with the new token while the pair is being saved…
            try await waitUntil("20 reads with the new token") {
                harness.cardRequests.filter { $0.method == .get && bearer($0) != old.accessToken }.count == 20
            }
            #expect(await harness.fake.readsBeforeSave == 20)
            // …but nobody has heard back, and the delete has not gone out with the new token.
            #expect(finished.count == 0)
            #expect(!harness.cardRequests.contains { $0.method == .delete && bearer($0) != old.accessToken })
            #expect(client.interceptor.dependentCount > 0)
            saving.open()
            let outcomes = await running.value

            #expect(outcomes.reads.count == 20)
            #expect(outcomes.reads.allSatisfy { (try? $0.get()) != nil })
            #expect((try? outcomes.delete?.get()) != nil)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(await harness.fake.savedBeforeUseViolations == 0)
            let stored = try #require(
                try harness.store.read(server: Harness.server.absoluteString, account: old.account))
            #expect(stored.accessToken != old.accessToken)
            #expect(
                harness.cardRequests.filter { bearer($0) != old.accessToken }.allSatisfy {
                    bearer($0) == stored.accessToken
                })
            #expect(client.interceptor.dependentCount == 0)
            #expect(client.interceptor.markedRequestCount == 0)
        }
    }

    @Test func aFailedSaveFailsEveryCallThatUsedTheNewTokenAndKeepsThePairInMemory() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            // The file turns group-readable while the refresh is answered, so saving the new pair
            // fails (the store refuses an unsafe file) after the server has rotated it.
            let path = harness.store.path
            await harness.fake.set(onRefresh: {
                _ = try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            })
            // Every call is at the server with the old token before the first 401 comes back, and
            // every one waits for the one refresh before the refresh answers: all of them take
            // the new token from the refresh, while its save runs.
            let door = Gate()
            await harness.fake.set(gate: door, forPath: "/v1/card/storm")
            await harness.fake.set(gate: door, forPath: "/v1/card/card_gone")
            let answer = Gate()
            await harness.fake.set(refreshGate: answer)
            let client = harness.client()

            let running = Task { await readsAndADelete(client, reads: 20, readID: "storm", finished: Counter()) }
            try await waitUntil("21 calls at the server") { door.waiterCount == 21 }
            door.open()
            try await waitUntil("21 calls waiting for the refresh") {
                await client.session.flight?.waiterCount == 21
            }
            answer.open()
            let outcomes = await running.value

            #expect(outcomes.reads.count == 20)
            #expect(outcomes.reads.allSatisfy { Self.isStoreError($0.map { _ in () }) })
            #expect(outcomes.delete.map(Self.isStoreError) == true)
            #expect(await harness.fake.refreshCalls == 1)
            // The change never went out with a token the file does not hold.
            #expect(!harness.cardRequests.contains { $0.method == .delete && bearer($0) != old.accessToken })
            #expect(client.interceptor.dependentCount == 0)

            // The server rotated the pair, so this process keeps the new one in memory: once the
            // file is fixed, the next call works without another refresh.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            let card = try await client.card(id: "card_after")
            #expect(card.id == "card_after")
            #expect(await harness.fake.refreshCalls == 1)
            let last = try #require(harness.cardRequests.last)
            #expect(bearer(last) != old.accessToken)
        }
    }

    /// Calls that have returned.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    private static func isStoreError(_ result: Result<Void, CardAPIError>) -> Bool {
        if case .failure(.tokenStore(.fileTooOpen)) = result { return true }
        return false
    }

    @Test func finishingTheRefreshInFlightWaitsForTheSave() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens(expired: true)
            let client = harness.client()
            let (held, saving) = await Self.holdingTheSave(of: client)
            let call = Task { try await client.card(id: "card_1") }
            await held.wait()
            let finishing = Task {
                await client.session.finishRefreshInFlight()
                // By the time it returns, the new pair is in the file.
                return try harness.store.read(server: Harness.server.absoluteString, account: old.account)?.accessToken
            }
            try await waitUntil("the read sent with the new token") { harness.cardRequests.count == 1 }
            saving.open()
            let saved = try await finishing.value
            _ = try await call.value
            #expect(saved != nil && saved != old.accessToken)
            #expect(bearer(try #require(harness.cardRequests.first)) == saved)
        }
    }
}
