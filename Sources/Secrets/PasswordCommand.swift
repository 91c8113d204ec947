import Foundation
import OwnThreads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A command that prints a password (`pass show dav/alice`, `secret-tool lookup …`, `rbw get …`),
/// run each time the password is needed, as vdirsyncer's `fetch = ["command", …]` and aerc's
/// `source-cred-cmd` do. The first line of its standard output is the password.
///
/// A command given as one string is run by `/bin/sh -c`, so quoting, `~` and pipes work as in a
/// shell; an argument vector (the config file's array form) is run as it is, found on `PATH`.
/// It runs in a process group of its own, so a command that takes too long is stopped with
/// everything it started. Its standard error goes where the wallet's does; its output is never
/// shown, logged or quoted.
public struct PasswordCommand: Sendable, Hashable, CustomStringConvertible {
    /// The argument vector.
    public let arguments: [String]
    /// How long the command may take.
    public let timeout: Duration

    /// The longest a password command may take.
    public static let defaultTimeout: Duration = .seconds(10)
    /// The most output read: a password is a line, not a file.
    static let outputLimit = 64 * 1024

    /// A command from its argument vector.
    public init(arguments: [String], timeout: Duration = defaultTimeout) {
        self.arguments = arguments
        self.timeout = timeout
    }

    /// A command line run by `/bin/sh -c`.
    public init(shell line: String, timeout: Duration = defaultTimeout) {
        self.init(arguments: ["/bin/sh", "-c", line], timeout: timeout)
    }

    /// The command as a person wrote it: the shell line, or the arguments joined.
    public var description: String {
        if arguments.count == 3, arguments[0] == "/bin/sh", arguments[1] == "-c" { return arguments[2] }
        return arguments.joined(separator: " ")
    }

    /// Runs the command and reads its password.
    ///
    /// - Parameter environment: the environment it runs in.
    /// - Returns: the first line of its standard output, without the line break.
    /// - Throws: ``SecretError`` (``SecretError/Reason/command``) naming the command when it cannot
    ///   start, exits non-zero, prints nothing or takes longer than ``timeout`` (it is then killed);
    ///   never quoting what it printed.
    public func password(environment: [String: String]) async throws(SecretError) -> String {
        let named = "The password command “\(SecretError.escaped(description))”"
        guard let first = arguments.first, !first.isEmpty else {
            throw SecretError(.command, "The password command is empty.")
        }
        let (arguments, timeout) = (self.arguments, self.timeout)
        // It waits for the command (waitpid): on a thread of its own, off the cooperative pool.
        let outcome = await OwnThread.run(name: "cardwallet.password-command") {
            Self.run(arguments, environment: environment, timeout: timeout)
        }
        switch outcome {
        case .notStarted(let code):
            throw SecretError(
                .command,
                "\(named) could not be started: \(SecretError.escaped(first)): \(String(cString: strerror(code))).")
        case .timedOut:
            throw SecretError(
                .command, "\(named) did not finish within \(timeout.components.seconds) s; it was stopped.")
        case .exited(let status, _) where status != 0:
            throw SecretError(.command, "\(named) failed (exit status \(status)).")
        case .signalled(let signal):
            throw SecretError(.command, "\(named) was stopped by signal \(signal).")
        case .exited(_, let output):
            var line = output.prefix { $0 != UInt8(ascii: "\n") }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard !line.isEmpty else {
                throw SecretError(.command, "\(named) printed no password (its first line is empty).")
            }
            return String(decoding: line, as: UTF8.self)
        }
    }

    enum Outcome: Sendable {
        case notStarted(errno: Int32)
        case timedOut
        case exited(status: Int32, output: [UInt8])
        case signalled(Int32)
    }

    /// Spawns, reads and waits, blocking the calling thread until the command ends or `timeout`.
    static func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Outcome {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .notStarted(errno: errno) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own: a command stopped for taking too long goes with its children.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // PATH lookup by posix_spawnp uses this process's PATH; the child gets `environment`.
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return .notStarted(errno: spawned)
        }

        let deadline = ContinuousClock.now + timeout
        func remainingMilliseconds() -> Int32 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return 0 }
            return Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
        }
        func stop() -> Outcome {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            return .timedOut
        }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, remainingMilliseconds())
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                close(readEnd)
                return stop()
            }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break reading }
            if output.count < outputLimit { output += buffer.prefix(min(count, outputLimit - output.count)) }
        }
        close(readEnd)
        while true {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (macros do not reach Swift).
                let signal = status & 0x7f
                return signal == 0 ? .exited(status: (status >> 8) & 0xff, output: output) : .signalled(signal)
            }
            if done < 0, errno != EINTR { return .exited(status: 0, output: output) }
            if remainingMilliseconds() == 0 { return stop() }
            usleep(2_000)
        }
    }
}
