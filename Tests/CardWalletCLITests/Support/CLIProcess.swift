import Foundation
import PseudoTerminalSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `cardwallet` binary SwiftPM built beside the test executable (the test target depends
/// on the executable target, so it is always built first).
enum CardWalletBinary {
    static func path() throws -> String {
        var folders: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent())
        // On macOS the tests run inside an .xctest bundle: Contents/MacOS/… sits three levels down.
        folders += folders.map {
            $0.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        for folder in folders {
            let binary = folder.appending(path: "cardwallet").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        throw TestFailure("cardwallet not found beside the test executable (looked in \(folders.map(\.path)))")
    }
}

/// What a finished `cardwallet` process left behind.
struct CLIResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String

    /// Both outputs, for "never appears anywhere" checks.
    var allOutput: String { stdout + stderr }

    var description: String {
        "cardwallet \(arguments.joined(separator: " ")) → \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// A started `cardwallet` process. Output goes to files (never a full pipe); the exit is
/// awaited through `terminationHandler`, with a deadline after which the process is killed.
final class CLIProcess: Sendable {
    let arguments: [String]
    private let process: Process
    private let outputPath: String
    /// Whether standard output goes to a scratch file the result can read back.
    private let capturesOutput: Bool
    private let errorPath: String
    private let exit = ExitSignal()

    /// Starts `cardwallet` with `arguments`, exactly `environment`, and `input` on stdin
    /// (`nil`: /dev/null); standard output goes to a scratch file, or to `outputPath` (say,
    /// `/dev/full`). With `terminal`, standard input and output are its slave side instead
    /// (for the interactive interface); the caller reads the screen on the master side. With
    /// `umask` (octal, `000`), the process starts under that umask (through `/bin/sh`): the umask
    /// is process-wide, so a test never changes its own.
    init(
        _ arguments: [String], environment: [String: String], input: String?, scratch: TemporaryFolder,
        outputPath: String? = nil, terminal: PseudoTerminal? = nil, umask: String? = nil
    ) throws {
        self.arguments = arguments
        let id = UUID().uuidString
        self.outputPath = outputPath ?? scratch.path("out-\(id)")
        capturesOutput = outputPath == nil && terminal == nil
        errorPath = scratch.path("err-\(id)")
        if outputPath == nil { _ = FileManager.default.createFile(atPath: self.outputPath, contents: nil) }
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", try CardWalletBinary.path()] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try CardWalletBinary.path())
            process.arguments = arguments
        }
        process.environment = environment
        process.currentDirectoryURL = scratch.url
        if let input {
            let inputPath = try scratch.write(input, to: "in-\(id)")
            process.standardInput = FileHandle(forReadingAtPath: inputPath)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = FileHandle(forWritingAtPath: self.outputPath)
        if let terminal {
            process.standardInput = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
            process.standardOutput = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        }
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        let exit = exit
        process.terminationHandler = { finished in exit.signal(finished.terminationStatus) }
        self.process = process
        try process.run()
    }

    /// The process id (to read `/proc/PID/status` while it runs).
    var processIdentifier: Int32 { process.processIdentifier }

    /// What the process has written to standard error so far.
    var stderrSoFar: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends `number` to the process if it is still running.
    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Waits for the exit (killing the process after `timeout`) and collects the output.
    func finish(timeout: Duration = .seconds(90), sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> CLIResult
    {
        let process = process
        let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { await self.exit.wait() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            guard let first = try await group.next() else { return Int32?.none }
            group.cancelAll()
            if first == nil {
                kill(process.processIdentifier, SIGKILL)
                _ = await exit.wait()
            }
            return first
        }
        // A device such as /dev/full is never read back.
        // Decoded leniently: output that is not UTF-8 must still reach the checks, not read as "".
        let stdout = capturesOutput ? Self.text(at: outputPath) : ""
        let stderr = Self.text(at: errorPath)
        guard let status else {
            Issue.record("cardwallet \(arguments) did not exit within \(timeout)", sourceLocation: sourceLocation)
            throw TestFailure("timed out: cardwallet \(arguments)\n\(stderr)")
        }
        return CLIResult(arguments: arguments, status: status, stdout: stdout, stderr: stderr)
    }
}

extension CLIProcess {
    /// The file's bytes as text, invalid UTF-8 shown as U+FFFD; empty when there is no file.
    static func text(at path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A one-shot signal carrying an exit status, awaited by any number of tasks.
final class ExitSignal: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())

    func signal(_ status: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}
