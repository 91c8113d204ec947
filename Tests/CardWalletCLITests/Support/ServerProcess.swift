import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A `cardwallet mock-server` process: its standard output and error go to files that tests
/// poll with deadlines; it can be signalled or killed, and is always killed by ``with(_:in:_:)``.
final class ServerProcess: Sendable {
    let arguments: [String]
    private let process: Process
    private let outputPath: String
    private let errorPath: String
    private let exit = ExitSignal()

    /// Starts `cardwallet mock-server` with `arguments`, in `folder`, with an environment of
    /// `PATH`, `HOME` and `environment` only.
    init(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) throws {
        self.arguments = ["mock-server"] + arguments
        let id = UUID().uuidString
        outputPath = folder.path("server-out-\(id)")
        errorPath = folder.path("server-err-\(id)")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CardWalletBinary.path())
        process.arguments = self.arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path].merging(environment) { $1 }
        process.currentDirectoryURL = folder.url
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        let exit = exit
        process.terminationHandler = { finished in exit.signal(finished.terminationStatus) }
        self.process = process
        try process.run()
    }

    /// Runs `body` with a started server, and kills the server afterwards whatever happens.
    static func with<T>(
        _ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:],
        _ body: (ServerProcess) async throws -> T
    ) async throws -> T {
        let server = try ServerProcess(arguments, in: folder, environment: environment)
        do {
            let result = try await body(server)
            server.kill(SIGKILL)
            _ = await server.exitStatus()
            return result
        } catch {
            server.kill(SIGKILL)
            _ = await server.exitStatus()
            throw error
        }
    }

    var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The lines written to standard output so far (only complete ones).
    var stdoutLines: [String] {
        let text = stdout
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Waits for the first line of standard output and returns the base URL it announces.
    func baseURL(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await waitUntil(timeout: .seconds(120), "the first line of \(arguments)", sourceLocation: sourceLocation) {
            !stdoutLines.isEmpty || hasExited
        }
        let first = stdoutLines.first ?? ""
        guard first.hasPrefix("listening on ") else {
            throw TestFailure("the server did not start: \(first)\n\(stderr)")
        }
        return String(first.dropFirst("listening on ".count))
    }

    var hasExited: Bool { !process.isRunning }

    func kill(_ signal: Int32) {
        if process.isRunning { Glibc.kill(process.processIdentifier, signal) }
    }

    /// The exit status, once the process has ended.
    func exitStatus() async -> Int32 { await exit.wait() }

    /// How the process ended: by `exit` or by a signal.
    var terminationReason: Process.TerminationReason { process.terminationReason }

    /// Waits (with a deadline, killing the process after it) for the exit status.
    func waitForExit(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> Int32
    {
        try await waitUntil(timeout: timeout, "\(arguments) to exit", sourceLocation: sourceLocation) { hasExited }
        return await exitStatus()
    }
}

/// Just enough HTTP for these tests (URLSession; the server is on 127.0.0.1).
enum HTTP {
    struct Reply: Sendable {
        var status: Int
        var body: Data
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var data: [String: Any]? { json?["data"] as? [String: Any] }
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ method: String, _ url: String, token: String? = nil, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        guard let address = URL(string: url) else { throw TestFailure("bad URL \(url)") }
        var request = URLRequest(url: address)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    static func json(
        _ method: String, _ url: String, _ object: Any, token: String? = nil, headers: [String: String] = [:]
    )
        async throws -> Reply
    {
        try await send(
            method, url, token: token, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
            body: try JSONSerialization.data(withJSONObject: object))
    }

    /// Logs in and returns the access token.
    static func login(_ base: String, email: String = "demo@cardwallet.dev", password: String = "demo1234") async throws
        -> String
    {
        let reply = try await json("POST", base + "/auth/login", ["email": email, "password": password])
        guard let token = reply.data?["accessToken"] as? String else {
            throw TestFailure("login failed: \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        }
        return token
    }

    /// `POST /card` with just a name; returns the new card's id, or `nil` when it was not created.
    static func createCard(_ base: String, token: String, name: String) async throws -> String? {
        let boundary = "server-process-test"
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"card.name\"\r\n\r\n\(name)\r\n--\(boundary)--\r\n"
        let reply = try await send(
            "POST", base + "/card", token: token,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: Data(body.utf8))
        return reply.status == 201 ? reply.data?["id"] as? String : nil
    }
}
