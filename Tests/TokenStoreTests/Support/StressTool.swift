import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `tokenstore-stress`, the child program built next to the test bundle.
enum StressTool {
    /// The binary's path: beside the running test executable (`.build/<triple>/debug/`), where
    /// SwiftPM puts every product of the package, `tokenstore-stress` included.
    static func path() throws -> String {
        var candidates: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent())
        // On macOS the tests run inside an .xctest bundle: Contents/MacOS/… sits three levels down.
        candidates += candidates.map {
            $0.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        for folder in candidates {
            let tool = folder.appendingPathComponent("tokenstore-stress").path
            if FileManager.default.isExecutableFile(atPath: tool) { return tool }
        }
        throw TestFailure(
            "tokenstore-stress not found beside the test executable (looked in "
                + candidates.map(\.path).joined(separator: ", ") + "); build with `swift build --build-tests`")
    }

    /// Starts the tool with `arguments`; stdout goes to a pipe read by ``Child/finish()``.
    static func start(_ arguments: [String]) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path())
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let child = Child(process: process, output: output, errors: errors)
        try process.run()
        return child
    }

    /// Runs the tool to completion and returns its standard output; a failure is an error.
    static func run(_ arguments: [String]) async throws -> String {
        let child = try start(arguments)
        let result = try await child.finish()
        guard result.status == 0 else {
            throw TestFailure("tokenstore-stress \(arguments.first ?? "") exited \(result.status): \(result.errors)")
        }
        return result.output
    }
}

/// A running child process.
final class Child {
    let process: Process
    let output: Pipe
    let errors: Pipe

    init(process: Process, output: Pipe, errors: Pipe) {
        self.process = process
        self.output = output
        self.errors = errors
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends SIGKILL: the process dies at whatever instruction it was running.
    func sendKill() {
        _ = kill(pid, SIGKILL)
    }

    /// Waits (polling, with a deadline) until the process has exited, then collects its output.
    ///
    /// The commands print a line or two, far below a pipe's buffer, so reading after exit is safe.
    func finish(timeout: Duration = .seconds(120)) async throws -> (status: Int32, output: String, errors: String) {
        let process = process
        try await waitUntil(timeout: timeout, "tokenstore-stress (pid \(pid)) exited") { !process.isRunning }
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, out, err)
    }
}
