import Foundation
import Networking
import TestSupport
import Testing

/// A 200 MB upload is streamed from disk, never held in memory whole. Serialized, so the two
/// tests' memory never adds up in the peak measurement.
@Suite(.serialized) struct LargeUploadTests {
    static let size: Int64 = 200 * 1024 * 1024
    static let markers: [Int64: UInt8] = [0: 0xA1, 1_000_003: 0xB2, 100 * 1024 * 1024 + 7: 0xC3, size - 1: 0xD4]

    struct Stats: Decodable {
        var bytes: Int64
        var chunks: Int
        var largestChunk: Int
        var markers: [String: Int]
    }

    /// A sparse file of `size` bytes, zero except for the marker bytes.
    static func makeFile(in folder: TemporaryFolder) throws -> URL {
        let url = folder.url("big.bin")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
        for (offset, byte) in markers {
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: Data([byte]))
        }
        return url
    }

    @Test func uploadIsStreamedInChunksWithoutLoadingTheFile() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = try Self.makeFile(in: folder)
        let probe = ServerProbe(markerOffsets: Array(Self.markers.keys))
        try await TestServer.run(probe: probe) { port, _ in
            try await LiveTransport.withTransport { transport in
                let provider = Provider<Endpoint>(transport: transport)
                let target = Endpoint(port: port, .upload(file))
                let peakBefore = MemoryProbe.resetPeak()
                let stats = try await provider.request(target, as: Stats.self)
                let peakGrowth = MemoryProbe.peakResidentBytes() - peakBefore

                #expect(stats.bytes == Self.size)
                #expect(stats.chunks > 100)
                #expect(stats.largestChunk <= 1024 * 1024)
                let expectedMarkers = Dictionary(
                    uniqueKeysWithValues: Self.markers.map { ("\($0.key)", Int($0.value)) })
                #expect(stats.markers == expectedMarkers)
                // Loading the file would raise the peak by at least its 200 MB; streaming stays far
                // below (typically under 25 MB here, the rest of the suite running alongside).
                #expect(peakGrowth < Self.size / 2, "peak resident memory grew by \(peakGrowth / 1024 / 1024) MB")
            }
        }
    }

    @Test func uploadBodyIsFileBacked() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = try Self.makeFile(in: folder)
        let request = try await sentRequest(for: Endpoint(TestAPI.upload(file)))
        #expect(request.body.length == Self.size)
        #expect(request.body.isInMemory == false)
        #expect(request.body.data == nil)
        var largest = 0
        var total: Int64 = 0
        try await request.body.forEachChunk(chunkSize: 1024 * 1024) { chunk in
            largest = max(largest, chunk.count)
            total += Int64(chunk.count)
        }
        #expect(total == Self.size)
        #expect(largest == 1024 * 1024)
    }
}

/// Reads this process's resident memory from /proc (Linux).
enum MemoryProbe {
    /// Resets the peak (VmHWM) where the kernel allows it, and returns the current peak.
    static func resetPeak() -> Int64 {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        return peakResidentBytes()
    }

    /// The peak resident set size (VmHWM) in bytes.
    static func peakResidentBytes() -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int64($0) }.first ?? 0
        return kilobytes * 1024
    }
}
