public import Foundation
import Synchronization
import Testing

/// A peer written by someone else, started by a test in a child process through one of the
/// repository's scripts (`scripts/oauth-server.py`, `scripts/carddav-server.py`): the script
/// prints what the test needs on its first lines (its URL, its ports) once it listens, and stops
/// when its standard input closes. Missing Python peers fail the test with a message saying to
/// run `scripts/bootstrap`; a test never passes without its peer.
public final class PythonPeer: Sendable {
    /// The lines the script printed first.
    public let lines: [String]
    private let process: Process
    private let input: FileHandle
    private let errors: OutputBuffer
    private let name: String

    /// The repository's root, from this file's place in it.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts `scripts/SCRIPT arguments…` and waits for its first `lines` lines.
    ///
    /// - Parameters:
    ///   - script: the script's name in `scripts/`.
    ///   - arguments: its arguments.
    ///   - requirements: the `scripts/requirements-*.txt` files whose pins it needs.
    ///   - lines: how many lines it prints once it listens.
    public init(_ script: String, _ arguments: [String], requirements: [String], lines wanted: Int = 1) async throws {
        name = script
        try Self.check(requirements)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repository.appending(path: "scripts/\(script)").path] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let output = OutputBuffer()
        let errors = OutputBuffer()
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            output.data.withLock { $0.append(chunk) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            errors.data.withLock { $0.append(chunk) }
        }
        try process.run()
        self.process = process
        self.input = stdin.fileHandleForWriting
        self.errors = errors
        let printed: @Sendable () -> [String] = {
            output.data.withLock { data in
                guard let last = data.lastIndex(of: 0x0A) else { return [] }
                return String(decoding: data[..<last], as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        do {
            try await waitUntil(timeout: .seconds(60), "\(script) to start") {
                printed().count >= wanted || !process.isRunning
            }
        } catch {
            process.terminate()
            throw error
        }
        stdout.fileHandleForReading.readabilityHandler = nil
        let got = printed()
        guard got.count >= wanted else {
            let said = errors.data.withLock { String(decoding: $0, as: UTF8.self) }
            process.terminate()
            throw TestFailure("scripts/\(script) did not start (run scripts/bootstrap): \(said)")
        }
        lines = got
    }

    /// What the script wrote to standard error so far.
    public var errorOutput: String { errors.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Closes the script's standard input, which stops it, and waits until it has exited.
    public func stop() async {
        try? input.close()
        do {
            try await waitUntil(timeout: .seconds(30), "\(name) to exit") { !process.isRunning }
        } catch {
            process.terminate()
        }
    }

    /// The requirement sets found installed by this test process: each is checked once (the
    /// check blocks its thread while Python starts, and many tests start peers at once).
    private static let installed = Mutex<Set<[String]>>([])

    /// Fails with a clear message when the pinned peers of `requirements` (files in `scripts/`)
    /// are not installed; checked once per test process.
    public static func check(_ requirements: [String]) throws {
        if installed.withLock({ $0.contains(requirements) }) { return }
        try checkOnce(requirements)
        installed.withLock { _ = $0.insert(requirements) }
    }

    private static func checkOnce(_ requirements: [String]) throws {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments =
            ["python3", repository.appending(path: "scripts/check-requirements.py").path]
            + requirements.map { repository.appending(path: "scripts/\($0)").path }
        let output = Pipe()
        check.standardOutput = output
        check.standardError = output
        do {
            try check.run()
        } catch {
            throw TestFailure("python3 is needed for the test peers: run scripts/bootstrap (\(error))")
        }
        let said = output.fileHandleForReading.readDataToEndOfFile()
        check.waitUntilExit()
        guard check.terminationStatus == 0 else {
            throw TestFailure(
                "The test peers of \(requirements.joined(separator: ", ")) are not installed: run scripts/bootstrap. "
                    + String(decoding: said, as: UTF8.self))
        }
    }
}

/// Bytes a child process wrote, gathered as they come.
private final class OutputBuffer: Sendable {
    let data = Mutex(Data())
}
