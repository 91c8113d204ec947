import Foundation

/// A peer the bench starts with one of the repository's scripts (`scripts/oauth-server.py`,
/// `scripts/carddav-server.py`): it prints what the bench needs on its first lines once it
/// listens, and stops when its standard input closes.
final class ScriptPeer: @unchecked Sendable {
    /// The first lines it printed.
    let lines: [String]
    private let process: Process
    private let input: Pipe

    /// Starts `scripts/SCRIPT arguments…` and reads its first `count` lines; its standard error
    /// goes to `log`.
    ///
    /// - Throws: ``BenchError`` when the script is missing or prints fewer lines.
    init(_ script: String, _ arguments: [String], lines count: Int, log: String) throws {
        let path = try RadicaleServer.script().replacingOccurrences(of: "carddav-server.py", with: script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(path): \(error.localizedDescription)")
        }
        var data = Data()
        while data.filter({ $0 == UInt8(ascii: "\n") }).count < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= count else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw BenchError(
                "\(script) did not start: \(said.suffix(400)) (pip install -r scripts/requirements-oauth.txt "
                    + "-r scripts/requirements-carddav.txt)")
        }
        self.lines = lines
        self.process = process
        self.input = input
    }

    /// Stops the peer and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
