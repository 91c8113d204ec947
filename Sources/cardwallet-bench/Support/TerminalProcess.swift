import Foundation
import Glibc
import PseudoTerminalSupport

/// A program running in a pseudo-terminal (the shared `PseudoTerminal`) of a fixed size, as in a terminal emulator: its
/// standard input, output and error are the terminal, which is its controlling terminal in a
/// session of its own. This process holds the other end and reads every byte it writes.
///
/// Blocking: call it from a thread of its own (``OwnThread``), never from Swift concurrency's
/// few cooperative threads.
final class TerminalProcess {
    /// The child's process id.
    let pid: pid_t
    /// When the child was spawned.
    let started: ContinuousClock.Instant
    private let terminal: PseudoTerminal
    private var exitStatus: Int32?

    /// glibc's `POSIX_SPAWN_SETSID` (since 2.26; `<spawn.h>` declares it only under `_GNU_SOURCE`,
    /// which Swift's Glibc module is not built with). The child calls `setsid()` before the file
    /// actions run, so opening the terminal makes it the child's controlling terminal.
    private static let spawnSetSID: Int16 = 0x80

    /// Starts `path` with `arguments` and exactly `environment` in a `columns`×`rows` terminal.
    ///
    /// - Throws: ``BenchError`` when the terminal cannot be opened or the program not started.
    init(path: String, arguments: [String], environment: [String: String], columns: Int, rows: Int) throws {
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal(columns: columns, rows: rows)
        } catch {
            throw BenchError("\(error)")
        }
        // The child opens the terminal by name (so it becomes its controlling terminal); this
        // process's copy of that end goes once the child has its own.
        defer { terminal.closeSlave() }
        let name = terminal.slavePath

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnSetSID)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        let clock = ContinuousClock()
        started = clock.now
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw BenchError("cannot start \(path) in a pseudo-terminal: \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.terminal = terminal
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// Seconds since the spawn.
    func elapsed() -> Double {
        seconds(from: started, to: ContinuousClock().now)
    }

    /// Seconds of CPU the child has used so far, every thread (its process CPU-time clock);
    /// `nil` once it is gone.
    func cpuSeconds() -> Double? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        var spec = timespec()
        guard clock_gettime(clock, &spec) == 0 else { return nil }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Waits at most `timeout` seconds for output and returns what arrived: `nil` when nothing
    /// did, an empty array once the child has closed the terminal (it exited).
    func read(timeout: Double) -> [UInt8]? {
        terminal.read(timeout: timeout)
    }

    /// Types `bytes` into the terminal.
    ///
    /// - Throws: ``BenchError`` when the terminal cannot be written.
    func write(_ bytes: [UInt8]) throws {
        do {
            try terminal.write(bytes)
        } catch {
            throw BenchError("\(error)")
        }
    }

    /// The child's memory now, from `/proc/PID/status`.
    ///
    /// - Throws: ``BenchError`` when the file cannot be read (the child is gone).
    func memory() throws -> ProcessMemory {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/status: the program exited early")
        }
        return try ProcessMemory.parse(status: text)
    }

    /// Types `keys` (a quit key), reads until the child closes the terminal, and reaps it; after
    /// `timeout` seconds it is killed.
    ///
    /// - Returns: The exit status, or 128 + the signal that ended it.
    func finish(typing keys: [UInt8], timeout: Double) -> Int32 {
        if let exitStatus { return exitStatus }
        try? write(keys)
        let deadline = elapsed() + timeout
        var killed = false
        // Until the terminal closes; a grandchild holding it open gets two more seconds.
        while elapsed() < deadline + 2 {
            let remaining = deadline - elapsed()
            if remaining <= 0, !killed {
                kill(pid, SIGKILL)
                killed = true
            }
            guard let chunk = read(timeout: max(0.05, remaining)) else { continue }
            if chunk.isEmpty { break }
        }
        // The terminal closes during the child's exit, a moment before it can be reaped.
        var status: Int32 = 0
        let reapBy = elapsed() + 2
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno != EINTR) { break }
            if reaped == 0, elapsed() > reapBy {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                break
            }
            usleep(1_000)
        }
        let signal = status & 0x7F
        let result = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = result
        return result
    }
}
