import CardModels
public import CardWalletUI
import Foundation
import Networking
import Synchronization
public import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends the log pane's lines to `cardwallet.log` in the state folder: the file is `0600` in
/// a `0700` folder, and its size is bounded: past ``maximumBytes`` it is renamed to
/// `cardwallet.log.1` (replacing the previous one) and a new file is started. So the log
/// never takes more than about twice ``maximumBytes``.
///
/// Lines are the pane's lines with a full UTC timestamp, control characters escaped; they hold
/// no token or password because the lines it is given hold none (the logger plugin redacts).
/// Safe to use from any thread. A write that fails (a full disk) stops the writer and is
/// reported once through ``problem``; the app keeps running.
public final class LogFileWriter: Sendable {
    /// The log file's name in the state folder.
    public static let defaultFileName = "cardwallet.log"
    /// The size past which the file is rotated: 1 MiB.
    public static let defaultMaximumBytes = 1 << 20

    /// The log file's path.
    public let path: String
    /// The path the file is rotated to (`cardwallet.log.1`).
    public var rotatedPath: String { path + ".1" }
    /// The size past which the file is rotated.
    public let maximumBytes: Int

    private struct State {
        var handle: FileHandle?
        var size: Int
        var problem: String?
    }

    private let directory: StateDirectory
    private let fileName: String
    private let state: Mutex<State>

    /// Opens (or creates) the log file for appending.
    ///
    /// - Parameters:
    ///   - directory: The state folder (created `0700` when missing).
    ///   - fileName: The file's name in it.
    ///   - maximumBytes: The size past which the file is rotated (at least 1 KiB).
    /// - Throws: ``TokenStore/TokenStoreError`` when the folder or file is unsafe (a file others
    ///   can read, a symbolic link…) or cannot be opened; the text says how to fix it.
    public init(
        directory: StateDirectory, fileName: String = defaultFileName, maximumBytes: Int = defaultMaximumBytes
    ) throws(TokenStoreError) {
        self.directory = directory
        self.fileName = fileName
        self.path = directory.filePath(named: fileName)
        self.maximumBytes = max(1_024, maximumBytes)
        let handle = try directory.openPrivateFile(named: fileName, mode: .append)
        let size = (try? handle.seekToEnd()).map { Int(clamping: $0) } ?? 0
        self.state = Mutex(State(handle: handle, size: size, problem: nil))
    }

    deinit {
        close()
    }

    /// Why the writer stopped, if a write failed.
    public var problem: String? { state.withLock { $0.problem } }

    /// Appends `line` as one line of text.
    public func write(_ line: LogLine) {
        write(text: Self.text(of: line))
    }

    /// Appends `text` (escaped, one line), rotating the file first when it would grow past
    /// ``maximumBytes``.
    public func write(text: String) {
        let data = Data((TerminalText.escaped(text) + "\n").utf8)
        state.withLock { state in
            guard state.handle != nil else { return }
            if state.size > 0, state.size + data.count > maximumBytes { rotate(&state) }
            guard let handle = state.handle else { return }
            do {
                try handle.write(contentsOf: data)
                state.size += data.count
            } catch {
                stop(&state, because: "cannot write \(path): \(error.localizedDescription)")
            }
        }
    }

    /// Closes the file; later writes do nothing.
    public func close() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
        }
    }

    /// `2026-11-21T09:30:00.123Z → GET /v1/cards?offset=0&limit=100 200 12 ms 4.1 KiB`.
    public static func text(of line: LogLine) -> String {
        var parts = [
            line.time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), LogFormat.marker(line.kind),
        ]
        if let method = line.method { parts.append(method) }
        if let path = line.path { parts.append(path) }
        if let status = line.status { parts.append(String(status)) }
        if let code = line.errorCode { parts.append(code) }
        if let duration = line.duration { parts.append(Format.duration(duration)) }
        if let bytes = line.bytes { parts.append(Format.bytes(bytes)) }
        if !line.text.isEmpty { parts.append(line.text) }
        return parts.joined(separator: " ")
    }

    /// Moves the full file to `.1` and starts an empty one.
    private func rotate(_ state: inout State) {
        try? state.handle?.close()
        state.handle = nil
        // rename(2) replaces the old `.1` in one step; when it fails, starting afresh still
        // keeps the size bounded.
        _ = rename(path, rotatedPath)
        do {
            state.handle = try directory.openPrivateFile(named: fileName, mode: .truncate)
            state.size = 0
        } catch {
            stop(&state, because: error.description)
        }
    }

    private func stop(_ state: inout State, because reason: String) {
        try? state.handle?.close()
        state.handle = nil
        if state.problem == nil { state.problem = reason }
    }
}
