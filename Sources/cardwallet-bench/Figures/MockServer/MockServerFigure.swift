import AsyncHTTPClient
import CardAPIContract
import CardModels
import Foundation
import NIOCore
import NIOFoundationCompat

/// §5: requests per second of the in-process mock server for `GET /card/{id}` and `GET /cards`
/// at concurrency 1 and 32, each as a ratio to a bare Hummingbird route answering the same
/// bytes from memory, measured in interleaved rounds.
struct MockServerFigure: Figure {
    static let concurrencies = [1, 32]

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let client = LoadGenerator.makeClient(connections: Self.concurrencies.max() ?? 1)
        do {
            let pair = try await ServerPair.start(client: client)
            let table: ResultTable
            do {
                table = try await measure(pair, client: client, context: context)
            } catch {
                await pair.stop()
                throw error
            }
            await pair.stop()
            try await client.shutdown()
            return [table]
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func measure(_ pair: ServerPair, client: HTTPClient, context: BenchContext) async throws -> ResultTable {
        // Short rounds, many of them: each mock round sits right next to its bare round, so a
        // burst of load from another process spoils one pair, not the median.
        let duration = context.pick(full: 0.5, quick: 0.2)
        let sampler = Sampler(warmup: 1, rounds: context.pick(full: 15, quick: 2))
        let generator = LoadGenerator(client: client)
        var table = ResultTable(title: "§5 Mock server — requests per second on 127.0.0.1", ratioHeader: "÷ bare route")
        for route in pair.routes {
            let bytes = pair.replies[route.path]?.body.readableBytes ?? 0
            for concurrency in Self.concurrencies {
                context.progress("mock-server: \(route.label) at concurrency \(concurrency)")
                func rate(_ base: String) async throws -> Double {
                    try await generator.requestsPerSecond(
                        base + route.path, headers: pair.headers, bodyBytes: bytes, concurrency: concurrency,
                        seconds: duration)
                }
                let samples = try await sampler.roundRobin(measuring: [
                    { try await rate(pair.mockBase) },
                    { try await rate(pair.bareBase) },
                ])
                table.rows.append(
                    ResultRow(
                        label: "\(route.label) — mock server", size: "c=\(concurrency)", summary: Summary(samples[0]),
                        quantity: .rate, ratio: Summary.pairedRatios(samples[0], samples[1])))
                table.rows.append(
                    ResultRow(
                        label: "\(route.label) — bare route, same bytes", size: "c=\(concurrency)",
                        summary: Summary(samples[1]),
                        quantity: .rate))
            }
        }
        table.rows += try encodingRows(pair, context: context)
        table.notes = [
            "Each sample: \(duration) s of closed-loop load from the bench's AsyncHTTPClient (c requests in flight on keep-alive connections), every answer checked for 200 and its length; mock and bare rounds alternate (A B, B A, …), \(sampler.rounds) rounds after \(sampler.warmup) warm-up.",
            "Bodies: "
                + pair.routes.map { "\($0.label) \(pair.replies[$0.path]?.body.readableBytes ?? 0) bytes" }.joined(
                    separator: ", ")
                + ". The bare route is a Hummingbird Router without middleware returning those bytes from memory; the client, both servers and the Swift runtime share the \(ProcessInfo.processInfo.activeProcessorCount) cores.",
            "No target in the issue: the ratio is the share of this machine's practical Hummingbird limit the mock server reaches.",
            "The JSONEncoder rows (one thread, no HTTP) time what the mock server does per request to build each body: CardWalletJSON.encoder().encode(envelope).",
        ]
        return table
    }

    /// Where the mock's time goes: encoding the same envelopes with the contract's encoder.
    private func encodingRows(_ pair: ServerPair, context: BenchContext) throws -> [ResultRow] {
        let sampler = Sampler(warmup: context.pick(full: 50, quick: 2), rounds: context.pick(full: 500, quick: 5))
        var rows: [ResultRow] = []
        for route in pair.routes {
            guard let reply = pair.replies[route.path] else { continue }
            let bytes = Data(buffer: reply.body)
            let decoder = CardWalletJSON.decoder()
            let encode: () throws -> Void
            if route.path.hasSuffix("/cards") {
                let envelope = try decoder.decode(SuccessEnvelope<APICardPage>.self, from: bytes)
                encode = { blackHole(try CardWalletJSON.encoder().encode(envelope)) }
            } else {
                let envelope = try decoder.decode(SuccessEnvelope<APICard>.self, from: bytes)
                encode = { blackHole(try CardWalletJSON.encoder().encode(envelope)) }
            }
            rows.append(
                ResultRow(
                    label: "\(route.label) — JSONEncoder alone", size: "1 thread",
                    summary: Summary(try sampler.measure(encode)),
                    quantity: .time))
        }
        return rows
    }
}
