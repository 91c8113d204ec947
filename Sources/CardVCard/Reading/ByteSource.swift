public import Foundation

/// Where a reader's bytes come from, a chunk at a time, so that a file is never loaded whole.
public protocol VCardByteSource {
    /// The next bytes, or `nil` at the end. A chunk may be of any non-zero size.
    ///
    /// - Throws: an I/O error; the reader reports it as the reason it stopped.
    mutating func nextChunk() throws -> [UInt8]?
}

/// Bytes already in memory, handed out in one chunk.
public struct InMemoryByteSource: VCardByteSource {
    private var bytes: [UInt8]?

    /// A source of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes, once.
    public mutating func nextChunk() throws -> [UInt8]? {
        defer { bytes = nil }
        return bytes?.isEmpty == true ? nil : bytes
    }
}

/// A file (or standard input) read in chunks of 64 KiB.
public struct FileByteSource: VCardByteSource {
    private let handle: FileHandle
    private let chunkSize: Int

    /// Reads from `handle` (which the caller keeps open and closes).
    public init(handle: FileHandle, chunkSize: Int = 64 * 1024) {
        self.handle = handle
        self.chunkSize = chunkSize
    }

    /// The next chunk, or `nil` at the end of the file.
    public mutating func nextChunk() throws -> [UInt8]? {
        guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
        return [UInt8](data)
    }
}
