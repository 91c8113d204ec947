import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starting child processes: timed (posix_spawn straight to waitpid, output thrown away) or
/// with their output captured.
enum Spawn {
    /// What a finished child left behind.
    struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that killed it.
        var status: Int32
        /// Seconds from just before the spawn to the end of `waitpid`.
        var seconds: Double
        /// Seconds of CPU the child used (user + system, from `wait4`).
        var cpuSeconds: Double = 0
    }

    /// Runs `path` with `arguments`, its output sent to /dev/null, and times it to its exit.
    ///
    /// - Throws: ``BenchError`` when the program cannot be started.
    static func timed(_ path: String, _ arguments: [String]) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard result == 0 else {
            throw BenchError("cannot start \(path): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw BenchError("waitpid failed for \(path): \(String(cString: strerror(errno)))")
            }
        }
        let seconds = seconds(from: start, to: clock.now)
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Outcome(
            status: exitStatus(status), seconds: seconds, cpuSeconds: value(usage.ru_utime) + value(usage.ru_stime))
    }

    /// Runs `path` with `arguments` (and exactly `environment`, when given) and returns its exit
    /// status and standard output.
    ///
    /// - Throws: ``BenchError`` when the program cannot be started.
    static func captured(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(path): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The status `waitpid` reported, as a shell would show it.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
