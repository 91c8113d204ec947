import Foundation
import Testing

/// A real GNOME Keyring on a private session bus, for one test: `dbus-daemon --session` on a
/// socket of its own, then `gnome-keyring-daemon --unlock --components=secrets` with a new login
/// keyring under the test's folder. Nothing of the person's own session is touched.
///
/// Processes that should use it (a `cardwallet` child, `secret-tool`) run with ``environment``.
/// Call ``stop()`` when the test ends.
public final class PrivateKeyring: Sendable {
    /// The environment of the private session: `DBUS_SESSION_BUS_ADDRESS`, `HOME`,
    /// `XDG_DATA_HOME`, `XDG_RUNTIME_DIR` (the keyring's files), `PATH`.
    public let environment: [String: String]
    private let bus: Process.SendableBox
    private let keyring: Process.SendableBox

    /// scripts/private-session-bus.conf: a session bus that starts no service when called, so
    /// the test's own gnome-keyring-daemon is the only one on it.
    public static let busConfiguration = PythonPeer.repository.appendingPathComponent(
        "scripts/private-session-bus.conf"
    ).path

    /// Why a private keyring cannot run here (`dbus-daemon`, `gnome-keyring-daemon` or
    /// `secret-tool` missing: scripts/bootstrap installs them), or `nil`.
    public static var missingTools: String? {
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/gnome-keyring-daemon", "/usr/bin/secret-tool"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (scripts/bootstrap installs dbus, gnome-keyring and libsecret-tools)"
        }
        return nil
    }

    /// Starts the bus and the keyring in `folder`, the login keyring unlocked with `password`.
    ///
    /// - Parameter locked: leave the login keyring locked (it is made, then locked again).
    /// - Throws: `TestFailure` when a daemon cannot start or the keyring never appears on the bus.
    public init(in folder: TemporaryFolder, password: String = "keyring-test-password", locked: Bool = false)
        async throws
    {
        let runtime = folder.path("keyring-run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime)
        var environment = [
            "HOME": folder.path("keyring-home"), "XDG_DATA_HOME": folder.path("keyring-data"),
            "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin",
        ]
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = [
            "--config-file=\(Self.busConfiguration)", "--nofork", "--nopidfile", "--print-address=1",
            "--address=unix:dir=\(runtime)",
        ]
        daemon.environment = environment
        let addressPipe = Pipe()
        daemon.standardOutput = addressPipe
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        bus = Process.SendableBox(daemon)
        let address = String(
            decoding: addressPipe.fileHandleForReading.availableLine() ?? Data(), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            daemon.terminate()
            throw TestFailure("dbus-daemon printed no address")
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        self.environment = environment

        let gnome = Process()
        gnome.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon")
        gnome.arguments = ["--foreground", "--unlock", "--components=secrets"]
        gnome.environment = environment
        let input = Pipe()
        gnome.standardInput = input
        gnome.standardOutput = FileHandle.nullDevice
        gnome.standardError = FileHandle.nullDevice
        try gnome.run()
        keyring = Process.SendableBox(gnome)
        input.fileHandleForWriting.write(Data(password.utf8))
        try input.fileHandleForWriting.close()

        do {
            try await waitUntil(timeout: .seconds(20), "the keyring on the private bus") {
                let answer = Self.run(
                    ["/usr/bin/secret-tool", "search", "application", "cardwallet-probe"], environment)
                return answer.status == 0 || answer.status == 1
            }
            // The login keyring exists once an item can be stored in it.
            try await waitUntil(timeout: .seconds(20), "the login keyring") {
                Self.run(
                    ["/usr/bin/secret-tool", "store", "--label=probe", "application", "cardwallet-probe"], environment,
                    input: "probe"
                ).status == 0
            }
            _ = Self.run(["/usr/bin/secret-tool", "clear", "application", "cardwallet-probe"], environment)
            if locked {
                let lock = Self.run(
                    [
                        "/usr/bin/dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
                        "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
                        "array:objpath:/org/freedesktop/secrets/collection/login",
                    ], environment)
                guard lock.status == 0 else { throw TestFailure("the login keyring could not be locked") }
            }
        } catch {
            stop()
            throw error
        }
    }

    /// What `secret-tool lookup application cardwallet server S user U` prints (`nil`: nothing found).
    public func lookup(server: String, user: String) -> String? {
        let answer = Self.run(
            ["/usr/bin/secret-tool", "lookup", "application", "cardwallet", "server", server, "user", user], environment
        )
        return answer.status == 0 ? answer.output : nil
    }

    /// Every item `secret-tool search --all application cardwallet` lists, as its text.
    public func search() -> String {
        Self.run(["/usr/bin/secret-tool", "search", "--all", "application", "cardwallet"], environment).output
    }

    /// Stops the keyring and the bus.
    public func stop() {
        // SIGKILL: gnome-keyring-daemon may ignore SIGTERM while it holds the bus; nothing of it
        // is kept after the test.
        for process in [keyring.process, bus.process] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs `arguments` in `environment`, feeding `input`; its exit status and standard output.
    @discardableResult
    public static func run(_ arguments: [String], _ environment: [String: String], input: String? = nil) -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        do {
            try process.run()
        } catch {
            return (-1, "")
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension Process {
    /// A process handed between tasks: only `terminate` and `waitUntilExit` are called on it.
    struct SendableBox: @unchecked Sendable {
        let process: Process
        init(_ process: Process) { self.process = process }
    }
}

extension FileHandle {
    /// Bytes up to the first line break (blocking until it comes or the handle ends).
    fileprivate func availableLine() -> Data? {
        var line = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first {
            if first == 0x0A { return line }
            line.append(first)
        }
        return line.isEmpty ? nil : line
    }
}
