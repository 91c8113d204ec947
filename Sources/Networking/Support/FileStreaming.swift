import Foundation
import NIOCore
import NIOFileSystem

/// File sizes, read synchronously when a body is built.
enum FileInfo {
    /// The size of the regular file at `path`, following symbolic links (the file is opened,
    /// and so followed, the same way when it is sent).
    static func size(ofFileAt path: String) throws(NetworkError) -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(
                atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path(percentEncoded: false))
        } catch {
            throw .invalidRequest("Could not read the file to upload at \(path): it does not exist or is not readable.")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw .invalidRequest("Could not upload \(path): it is not a regular file.")
        }
        guard let size = (attributes[.size] as? NSNumber)?.int64Value else {
            throw .invalidRequest("Could not read the size of the file to upload at \(path).")
        }
        return size
    }
}

/// Reading and writing files in chunks through NIO's file system, off the cooperative pool.
enum FileStreaming {
    /// Calls `consume` with the first `length` bytes of a file, in chunks.
    static func forEachChunk(
        ofFileAt path: String,
        length: Int64,
        chunkSize: Int,
        _ consume: (ByteBuffer) async throws -> Void
    ) async throws {
        var sent: Int64 = 0
        do {
            try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                for try await chunk in handle.readChunks(in: 0..<length, chunkLength: .bytes(Int64(chunkSize))) {
                    sent += Int64(chunk.readableBytes)
                    try await consume(chunk)
                }
            }
        } catch let error as FileSystemError {
            throw NetworkError.invalidRequest(
                "Could not read the file to upload at \(path): \(String(describing: error.code).lowercased()).")
        }
        guard sent == length else {
            throw NetworkError.invalidRequest(
                "The file \(path) changed size while it was being uploaded (\(length) bytes expected, \(sent) read).")
        }
    }

    /// Opens every file in `paths` for reading, runs `body` with the handles in order, then
    /// closes them, whatever happens.
    static func withReadHandles<Result: Sendable>(
        _ paths: [String],
        _ body: ([ReadFileHandle]) async throws -> Result
    ) async throws -> Result {
        try await open(paths[...], opened: [], body)
    }

    private static func open<Result: Sendable>(
        _ paths: ArraySlice<String>,
        opened: [ReadFileHandle],
        _ body: ([ReadFileHandle]) async throws -> Result
    ) async throws -> Result {
        guard let first = paths.first else { return try await body(opened) }
        do {
            return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(first)) { handle in
                try await open(paths.dropFirst(), opened: opened + [handle], body)
            }
        } catch let error as FileSystemError {
            throw NetworkError.invalidRequest(
                "Could not read the file to upload at \(first): \(String(describing: error.code).lowercased()).")
        }
    }

    /// Writes `chunks` to `destination`, which appears only once every chunk is written.
    ///
    /// - Returns: the number of bytes written.
    static func write<Chunks: AsyncSequence>(
        _ chunks: Chunks,
        to destination: DownloadDestination
    ) async throws -> Int64 where Chunks.Element == ByteBuffer {
        let path = destination.url.path(percentEncoded: false)
        var written: Int64 = 0
        do {
            try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(path),
                options: .newFile(replaceExisting: destination.replaceExisting)
            ) { handle in
                for try await chunk in chunks {
                    _ = try await handle.write(contentsOf: chunk, toAbsoluteOffset: written)
                    written += Int64(chunk.readableBytes)
                }
            }
        } catch let error as FileSystemError {
            throw NetworkError.invalidRequest(
                "Could not write the download to \(path): \(String(describing: error.code).lowercased()).")
        }
        return written
    }
}

/// Byte counts as people read them: `512 B`, `1.2 kB`, `3.4 MB` (powers of 1000).
enum ByteCountText {
    static func format(_ count: Int64) -> String {
        if count < 1000 { return "\(count) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(count) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        return rounded >= 100 ? "\(Int(rounded)) \(units[unit])" : "\(rounded) \(units[unit])"
    }
}
