import CardAPIContract
import CardModels
import Foundation
import TestSupport
import Testing

/// Hostile pages: endless, repeated, oversized; and dates to the millisecond.
extension HostileServerTests {
    /// Full pages of new ids with `total: 1e9`: `list` stops at its documented cap (100,000
    /// cards) with a clear error and exit 1, having read no more pages than that takes, with
    /// its memory bounded (it used to run until killed, growing by gigabytes).
    @Test func endlessPaginationEndsWithAClearErrorAndBoundedMemory() async throws {
        try await HostileWorld.with({ request in
            let offset = Int(request.query("offset") ?? "0") ?? 0
            let cards = (offset..<offset + 200).map { Hostile.card("c\($0)") }
            return .success(APICardPage(cards: cards, total: 1_000_000_000, offset: offset, limit: 200))
        }) { world in
            try await world.storeSession()
            let process = try world.start(["list"])
            let peak = PeakMemory(pid: process.processIdentifier)
            let list = try await process.finish(timeout: .seconds(120))
            let peakBytes = await peak.stop()
            #expect(list.status == 1, "\(list)")
            #expect(list.stderr.contains("it goes on past 100,000 cards, the most cardwallet lists"), "\(list)")
            #expect(list.stdout.isEmpty)
            #expect(world.server.requests(to: "/v1/cards").count == 500)
            #expect(peakBytes > 0)
            #expect(peakBytes < 256 << 20, "peak RSS \(peakBytes >> 20) MiB")
        }
    }

    /// A server that ignores `offset` and sends the same full page again: the second page adds
    /// no new card, so the list ends there with a clear error.
    @Test func aServerRepeatingAPageEndsTheList() async throws {
        try await HostileWorld.with({ _ in
            .success(
                APICardPage(
                    cards: (0..<200).map { Hostile.card("c\($0)") }, total: 1_000_000_000, offset: 0, limit: 200))
        }) { world in
            try await world.storeSession()
            let list = try await world.run(["list"])
            #expect(list.status == 1, "\(list)")
            #expect(list.stderr.contains("holds only cards already listed"), "\(list)")
            #expect(world.server.requests(to: "/v1/cards").count == 2)
        }
    }

    /// Cards longer than the server itself accepts, or more cards than asked for, are refused
    /// as the server would refuse them (`CardLimits`), naming the problem.
    @Test func oversizedCardsAndPagesAreRefused() async throws {
        let cases: [(APICardPage, String)] = [
            (
                APICardPage(
                    cards: [Hostile.card("c1", name: String(repeating: "x", count: 100_000))], total: 1, offset: 0,
                    limit: 200),
                "has a name longer than 64 characters"
            ),
            (
                APICardPage(cards: (0..<1_000).map { Hostile.card("c\($0)") }, total: 1_000, offset: 0, limit: 200),
                "it holds 1000 cards, more than the 200 asked for"
            ),
            (APICardPage(cards: [Hostile.card("../../etc")], total: 1, offset: 0, limit: 200), "cannot be a card id"),
        ]
        for (page, message) in cases {
            try await HostileWorld.with({ _ in .success(page) }) { world in
                try await world.storeSession()
                let list = try await world.run(["list", "--json"])
                #expect(list.status == 1, "\(list)")
                #expect(list.stderr.contains(message), "\(list)")
                #expect(list.stdout.isEmpty, "\(list)")
            }
        }
    }

    /// `.818Z` stays `.818Z` (it printed `.817Z`), and `.001Z` stays `.001Z` (it printed `.000Z`).
    @Test func datesKeepTheirMilliseconds() async throws {
        let body = #"""
            {"status":200,"success":true,"message":"OK","data":{"cards":[
            {"id":"c1","name":"A","defaultImage":0,"hasImage":false,"updatedAt":"2026-11-21T09:30:00.818Z","version":1},
            {"id":"c2","name":"B","defaultImage":0,"hasImage":false,"updatedAt":"2026-11-21T09:30:00.001Z","version":1}],
            "total":2,"offset":0,"limit":200}}
            """#
        try await HostileWorld.with({ _ in .json(body) }) { world in
            try await world.storeSession()
            let list = try await world.run(["list", "--json"])
            #expect(list.status == 0, "\(list)")
            #expect(list.stdout.contains("2026-11-21T09:30:00.818Z"), "\(list)")
            #expect(list.stdout.contains("2026-11-21T09:30:00.001Z"), "\(list)")
        }
    }
}

/// Samples a process's peak resident memory (`VmHWM` in `/proc/PID/status`) until stopped.
final class PeakMemory: Sendable {
    private let task: Task<Int, Never>

    init(pid: Int32) {
        task = Task {
            var peak = 0
            while !Task.isCancelled {
                if let value = Self.highWaterMark(pid: pid) { peak = max(peak, value) }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return peak
        }
    }

    /// Stops sampling and returns the peak seen, in bytes.
    func stop() async -> Int {
        task.cancel()
        return await task.value
    }

    static func highWaterMark(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
        return kilobytes.map { $0 * 1024 }
    }
}
