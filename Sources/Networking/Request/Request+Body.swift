public import Foundation
import NIOCore
import NIOFoundationCompat

extension Request {
    /// An encoded request body: bytes in memory, a file streamed from disk, or a mix of both
    /// (multipart form data with file parts).
    ///
    /// A body is built once and never changes, so sending it again (after a token refresh, say)
    /// sends the same bytes. File contents are read only while sending, in chunks.
    public struct Body: Sendable, Equatable, CustomStringConvertible {
        enum Segment: Sendable, Equatable {
            case bytes(ByteBuffer)
            case file(path: String, length: Int64)

            var length: Int64 {
                switch self {
                case .bytes(let buffer): Int64(buffer.readableBytes)
                case .file(_, let length): length
                }
            }
        }

        let segments: [Segment]
        /// The number of bytes the body sends.
        public let length: Int64
        /// For multipart form data, the number of parts; otherwise `nil`.
        public let multipartPartCount: Int?
        /// Whether the bytes were dropped and only the size and part count kept (for logs).
        let isSummary: Bool

        init(segments: [Segment], multipartPartCount: Int? = nil) {
            self.segments = segments.filter { $0.length > 0 }
            self.length = segments.reduce(0) { $0 + $1.length }
            self.multipartPartCount = multipartPartCount
            self.isSummary = false
        }

        /// The size and part count of `body`, without its bytes.
        init(summaryOf body: Body) {
            self.segments = []
            self.length = body.length
            self.multipartPartCount = body.multipartPartCount
            self.isSummary = true
        }

        init(buffer: ByteBuffer) {
            self.init(segments: [.bytes(buffer)])
        }

        /// No body.
        public static let empty = Body(segments: [])

        /// A body of `data`.
        public static func data(_ data: Data) -> Body {
            Body(buffer: ByteBuffer(data: data))
        }

        /// A body streamed from the file at `url` when sent; its size is read now.
        ///
        /// - Throws: ``NetworkError/invalidRequest(_:)`` if the file cannot be read.
        public static func file(_ url: URL) throws(NetworkError) -> Body {
            let path = url.path(percentEncoded: false)
            return Body(segments: [.file(path: path, length: try FileInfo.size(ofFileAt: path))])
        }

        /// `‹1.2 kB›`, `‹multipart, 3 parts, 1.2 MB›` or `‹file, 200 MB›`: never the bytes.
        public var description: String {
            let size = ByteCountText.format(length)
            if let parts = multipartPartCount { return "‹multipart, \(parts) parts, \(size)›" }
            return isInMemory || isSummary ? "‹\(size)›" : "‹file, \(size)›"
        }

        /// Whether the body sends no bytes.
        public var isEmpty: Bool { length == 0 }

        /// Whether every byte is in memory (no file parts).
        public var isInMemory: Bool {
            !isSummary && segments.allSatisfy { if case .bytes = $0 { true } else { false } }
        }

        /// The bytes, when the whole body is in memory; `nil` for a body with file parts.
        public var data: Data? {
            guard let buffer = inMemoryBuffer else { return nil }
            return Data(buffer: buffer, byteTransferStrategy: .noCopy)
        }

        /// The bytes as one buffer, when the whole body is in memory.
        var inMemoryBuffer: ByteBuffer? {
            if isSummary { return nil }
            switch segments.count {
            case 0: return ByteBuffer()
            case 1: if case .bytes(let buffer) = segments[0] { return buffer } else { return nil }
            default:
                var joined = ByteBuffer()
                joined.reserveCapacity(Int(length))
                for segment in segments {
                    guard case .bytes(var buffer) = segment else { return nil }
                    joined.writeBuffer(&buffer)
                }
                return joined
            }
        }

        /// The files this body streams from, in order.
        var filePaths: [String] {
            segments.compactMap { if case .file(let path, _) = $0 { path } else { nil } }
        }

        /// Calls `consume` with the body's bytes in order, reading files in chunks of at most
        /// `chunkSize` bytes, so a large file is never held in memory whole.
        ///
        /// - Throws: ``NetworkError/invalidRequest(_:)`` if a file cannot be read or changed
        ///   size since the body was built, or any error `consume` throws.
        public func forEachChunk(
            chunkSize: Int = 64 * 1024,
            _ consume: (Data) async throws -> Void
        ) async throws {
            for segment in segments {
                switch segment {
                case .bytes(let buffer):
                    try await consume(Data(buffer: buffer, byteTransferStrategy: .noCopy))
                case .file(let path, let length):
                    try await FileStreaming.forEachChunk(ofFileAt: path, length: length, chunkSize: chunkSize) {
                        try await consume(Data(buffer: $0, byteTransferStrategy: .noCopy))
                    }
                }
            }
        }

        /// All the bytes, reading any files; for stubs and tests.
        ///
        /// - Throws: ``NetworkError/invalidRequest(_:)`` if the body is longer than `maxBytes`
        ///   or a file cannot be read.
        public func collect(upTo maxBytes: Int = 64 * 1024 * 1024) async throws -> Data {
            guard length <= Int64(maxBytes) else {
                throw NetworkError.invalidRequest(
                    "The request body is \(ByteCountText.format(length)), "
                        + "more than the \(ByteCountText.format(Int64(maxBytes))) allowed here."
                )
            }
            if let data { return data }
            var collected = Data()
            collected.reserveCapacity(Int(length))
            try await forEachChunk { collected.append($0) }
            return collected
        }
    }
}
