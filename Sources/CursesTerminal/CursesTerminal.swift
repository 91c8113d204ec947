import CardWalletUI

/// Runs the terminal interface on ncursesw.
public enum CursesTerminal {
    /// Starts a ``CursesBackend``, runs `body` with it and restores the terminal however `body`
    /// ends: returning, throwing, or a termination signal. (Crashes are covered by the
    /// backend's signal handlers.)
    ///
    /// ```swift
    /// try await CursesTerminal.run(configuration: .init(strayOutputPath: logPath)) { terminal in
    ///     while terminal.terminationSignal == nil {
    ///         if let event = terminal.nextEvent(timeoutMilliseconds: 50) { /* … */ }
    ///         terminal.present(render(state, terminal.size))
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - configuration: Which terminal, where stray output goes, colours, signals.
    ///   - body: The main loop.
    /// - Returns: What `body` returned.
    /// - Throws: ``CursesTerminalError`` when the terminal cannot be used (not a TTY, unknown
    ///   `TERM`, …): print its description and exit with ``CursesTerminalError/exitCode``.
    ///   ``CursesTerminalError/terminated(signal:)`` after the terminal is restored when
    ///   SIGINT, SIGTERM or SIGHUP ended the loop. Otherwise whatever `body` throws.
    @MainActor
    public static func run<Result: Sendable>(
        configuration: CursesBackend.Configuration = CursesBackend.Configuration(),
        _ body: @MainActor (CursesBackend) async throws -> Result
    ) async throws -> Result {
        let backend = try CursesBackend(configuration: configuration)
        defer { backend.restore() }
        let result = try await body(backend)
        backend.restore()
        if let signal = backend.terminationSignal {
            throw CursesTerminalError.terminated(signal: signal)
        }
        return result
    }
}
