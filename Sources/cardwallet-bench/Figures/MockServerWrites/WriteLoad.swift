import AsyncHTTPClient
import CardAPIContract
import CardModels
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A closed-loop mixed write load on one mock server: `concurrency` workers, each sending its
/// next write as soon as the previous one is answered, for a fixed time.
///
/// Every five writes of a worker are: two `PUT /card/{id}` (new fields on a seed card), one
/// `POST /card` (a new card), one `DELETE /card/{id}` (the oldest card this worker created),
/// and one `PUT /card/{id}/image` (new image bytes on a seed card). Creates and deletes balance,
/// so the wallet keeps its size; every write really changes the data.
struct WriteLoad: Sendable {
    let client: HTTPClient

    /// Writes per second on `target` over `seconds`, with `concurrency` writes in flight.
    ///
    /// - Throws: ``BenchError`` when a write is not answered with success.
    func writesPerSecond(_ target: WriteServer, concurrency: Int, seconds duration: Double, round: Int) async throws
        -> Double
    {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .nanoseconds(Int64(duration * 1e9)))
        let (completed, end) = try await withThrowingTaskGroup(of: (Int, ContinuousClock.Instant).self) { group in
            for worker in 0..<concurrency {
                group.addTask { [client] in
                    var worker = Worker(
                        client: client, target: target, tag: "\(round)-\(worker)", offset: worker * 7919)
                    while clock.now < deadline { try await worker.next() }
                    // The clock stops before the clean-up, which is not counted.
                    let end = clock.now
                    try await worker.cleanUp()
                    return (worker.count, end)
                }
            }
            var total = 0
            var last = start
            for try await (count, end) in group {
                total += count
                last = max(last, end)
            }
            return (total, last)
        }
        return Double(completed) / seconds(from: start, to: end)
    }

    /// A PNG signature followed by `size - 8` bytes that depend on `mark`, so each is new.
    static func png(size: Int, mark: Int) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(contentsOf: (0..<max(0, size - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ mark) })
        return data
    }
}

/// One worker's writes, in the fixed mix.
private struct Worker {
    let client: HTTPClient
    let target: WriteServer
    let tag: String
    let offset: Int
    var count = 0
    var created: [String] = []

    mutating func next() async throws {
        switch count % 5 {
        case 0, 1: try await update()
        case 2: try await create()
        case 3: if created.isEmpty { try await create() } else { try await delete(created.removeFirst()) }
        default: try await replaceImage()
        }
        count += 1
    }

    /// Deletes what this worker created and did not delete yet, so the next round starts at
    /// the same size (not counted).
    mutating func cleanUp() async throws {
        for id in created { try await delete(id) }
        created = []
    }

    private var seedID: String { target.seedIDs[(offset + count * 31) % target.seedIDs.count] }

    private func update() async throws {
        let fields = CardFields(
            name: "Edited \(tag) #\(count)", title: "Title \(count)", company: "Company \(count % 97)",
            email: "edited\(count)@example.com", bio: "Edited by worker \(tag) on write \(count).")
        var headers = target.headers
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "If-Match", value: "*")
        _ = try await send(.PUT, "/card/\(seedID)", headers: headers, body: try CardWalletJSON.encoder().encode(fields))
    }

    private mutating func create() async throws {
        let boundary = "bench-\(tag)"
        var body = ""
        for (name, value) in [
            ("card.name", "Created \(tag) #\(count)"), ("card.company", "Bench Ltd"),
            ("card.email", "new\(count)@example.com"),
        ] {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)--\r\n"
        var headers = target.headers
        headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        let answer = try await send(.POST, "/card", headers: headers, body: Data(body.utf8))
        guard let card = try? CardWalletJSON.decoder().decode(SuccessEnvelope<APICard>.self, from: answer) else {
            throw BenchError("POST /card answered without a card")
        }
        created.append(card.data.id)
    }

    private func delete(_ id: String) async throws {
        var headers = target.headers
        headers.add(name: "If-Match", value: "*")
        _ = try await send(.DELETE, "/card/\(id)", headers: headers, body: nil)
    }

    private func replaceImage() async throws {
        var headers = target.headers
        headers.add(name: "Content-Type", value: "image/png")
        headers.add(name: "If-Match", value: "*")
        let image = WriteLoad.png(size: 1024, mark: offset &+ count &* 7)
        _ = try await send(.PUT, "/card/\(seedID)/image", headers: headers, body: image)
    }

    /// Sends a write and returns the answer's body.
    /// - Throws: ``BenchError`` unless it is answered 200 or 201.
    private func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders, body: Data?) async throws -> Data {
        var request = HTTPClientRequest(url: target.base + path)
        request.method = method
        request.headers = headers
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response: HTTPClientResponse
        let answer: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(120))
            answer = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw BenchError("\(method) \(path) failed: \(error)")
        }
        guard response.status == .ok || response.status == .created else {
            throw BenchError(
                "\(method) \(path) on the \(target.store) store answered \(response.status.code): \(String(buffer: answer).prefix(200))"
            )
        }
        return Data(buffer: answer)
    }
}
