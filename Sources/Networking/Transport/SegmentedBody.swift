import NIOCore
import NIOFileSystem

/// A body's bytes as an async sequence of buffers: in-memory segments as they are, file
/// segments read in chunks from handles opened by the caller.
struct SegmentedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let segments: [Request.Body.Segment]
    let handles: [ReadFileHandle]
    let chunkSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let segments: [Request.Body.Segment]
        let handles: [ReadFileHandle]
        let chunkSize: Int
        var index = 0
        var fileIndex = 0
        var chunks: FileChunks.AsyncIterator?

        mutating func next() async throws -> ByteBuffer? {
            while true {
                if var current = chunks {
                    let chunk = try await current.next()
                    chunks = current
                    if let chunk { return chunk }
                    chunks = nil
                    continue
                }
                guard index < segments.count else { return nil }
                let segment = segments[index]
                index += 1
                switch segment {
                case .bytes(let buffer):
                    return buffer
                case .file(_, let length):
                    let handle = handles[fileIndex]
                    fileIndex += 1
                    chunks = handle.readChunks(in: 0..<length, chunkLength: .bytes(Int64(chunkSize)))
                        .makeAsyncIterator()
                }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(segments: segments, handles: handles, chunkSize: chunkSize)
    }
}
