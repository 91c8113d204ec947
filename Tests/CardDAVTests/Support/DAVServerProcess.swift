import CardDAV
import Foundation
import Networking
import Synchronization
import TestSupport
import Testing

/// A real CardDAV server in a child process: `scripts/carddav-server.py` starts Radicale or
/// Xandikos (the pinned versions of `scripts/requirements-carddav.txt`) on 127.0.0.1, port 0,
/// and prints its URL on its first line. The server stops when its standard input closes.
///
/// Missing Python peers fail the test with a message saying to run `scripts/bootstrap`; a
/// test never passes without its server.
final class DAVServerProcess: Sendable {
    /// Which server.
    enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        var description: String { rawValue }
    }

    /// The server's root URL, for example `http://127.0.0.1:40123/`.
    let root: URL
    let kind: Kind
    /// The https front (`--front ROLE=HOST`): its port and the certificate authority made for
    /// the run, or `nil` without one.
    let front: (port: Int, authority: String)?
    let user = "alice"
    let password = DAVServerProcess.sharedPassword
    /// Every user's password.
    static let sharedPassword = "app-password-7f3e9b"
    private let process: Process
    private let input: FileHandle
    private let errorOutput: FileHandle
    private let folder: TemporaryFolder

    /// The repository's root, from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts a server of `kind`, runs `body`, and always stops it and removes its data.
    static func with<Result>(
        _ kind: Kind, front: [String] = [], otherUsers: [String] = [],
        _ body: (DAVServerProcess) async throws -> Result
    ) async throws -> Result {
        let server = try await DAVServerProcess(kind, front: front, otherUsers: otherUsers)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(server))
        } catch {
            outcome = .failure(error)
        }
        try await server.stop()
        return try outcome.get()
    }

    /// Starts a server of `kind`; `otherUsers` log in beside alice, with the same password.
    private init(_ kind: Kind, front: [String], otherUsers: [String] = []) async throws {
        try PythonPeer.check(["requirements-carddav.txt"])
        self.kind = kind
        folder = try TemporaryFolder("carddav-\(kind)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.repository.appending(path: "scripts/carddav-server.py").path, kind.rawValue,
                "--data", folder.path("data"), "--user", "alice:\(password)",
            ] + otherUsers.flatMap { ["--user", "\($0):\(Self.sharedPassword)"] } + front.flatMap { ["--front", $0] }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let output = Mutex(Data())
        let errors = Mutex(Data())
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            output.withLock { $0.append(chunk) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            errors.withLock { $0.append(chunk) }
        }
        try process.run()
        self.process = process
        self.input = stdin.fileHandleForWriting
        self.errorOutput = stderr.fileHandleForReading
        let lines: @Sendable () -> [String] = {
            output.withLock { data in
                guard let last = data.lastIndex(of: 0x0A) else { return [] }
                return String(decoding: data[..<last], as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        let firstLine: @Sendable () -> String? = { lines().first }
        let wanted = front.isEmpty ? 1 : 2
        do {
            try await waitUntil(timeout: .seconds(60), "\(kind) to print its URL") {
                lines().count >= wanted || !process.isRunning
            }
        } catch {
            process.terminate()
            throw error
        }
        guard let line = firstLine(), let url = URL(string: line), url.port != nil else {
            let said = errors.withLock { String(decoding: $0, as: UTF8.self) }
            process.terminate()
            folder.remove()
            throw TestFailure(
                "scripts/carddav-server.py \(kind) did not start (run scripts/bootstrap, which installs "
                    + "scripts/requirements-carddav.txt): \(said)")
        }
        stdout.fileHandleForReading.readabilityHandler = nil
        root = url
        // `https-port PORT CA-FILE`
        let words = lines().dropFirst().first?.split(separator: " ").map(String.init) ?? []
        if words.count == 3, words[0] == "https-port", let port = Int(words[1]) {
            self.front = (port, words[2])
        } else if !front.isEmpty {
            process.terminate()
            folder.remove()
            throw TestFailure("scripts/carddav-server.py started no https front: \(lines())")
        } else {
            self.front = nil
        }
    }

    /// Closes the server's standard input, which stops it, and waits until it has exited.
    func stop() async throws {
        errorOutput.readabilityHandler = nil
        try? input.close()
        do {
            try await waitUntil(timeout: .seconds(30), "\(kind) to exit") { !process.isRunning }
        } catch {
            process.terminate()
        }
        folder.remove()
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> URL { root.appending(path: path.hasPrefix("/") ? String(path.dropFirst()) : path) }

    /// `https://HOST:PORT/PATH` on the https front.
    func frontURL(_ host: String, _ path: String = "/") -> URL {
        URL(string: "https://\(host):\(front?.port ?? 0)\(path)")!
    }

    /// The hosts of the front that received a request with an Authorization header, in order
    /// (`DATA/tls/authorized.txt`), one entry per request.
    func authorizedHosts() -> [String] {
        let text = (try? String(contentsOfFile: folder.path("data/tls/authorized.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The address book the server starts with.
    var bookPath: String { kind == .radicale ? "/alice/contacts/" : "/user/contacts/addressbook/" }

    /// The principal.
    var principalPath: String { kind == .radicale ? "/alice/" : "/user/" }

    /// A client of this server, logging through `plugins`.
    func client(
        server: URL? = nil, password: String? = nil, transport: any Transport, plugins: [any Plugin] = [],
        batchSize: Int = 100
    ) -> CardDAVClient {
        CardDAVClient(
            configuration: CardDAVConfiguration(server: server ?? root, multigetBatchSize: batchSize),
            credentials: CardDAVCredentials(user: user, password: password ?? self.password),
            transport: transport, plugins: plugins)
    }
}
