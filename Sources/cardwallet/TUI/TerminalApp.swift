import ArgumentParser
import CardBackend
import CardImages
import CardModels
import CardWalletLive
import CardWalletUI
import CursesTerminal
import Foundation
import Logging
import Networking
import TokenStore

/// What the interactive interface starts with: the live pieces and what to fill in.
struct TerminalAppSetup: Sendable {
    /// The backend of the server the app starts on, its transport, token store, logger plugin
    /// and settings (log file, page size), built with ``LiveBackends/makeForTerminal(settings:environment:sessionLogger:sink:)``.
    /// The caller shuts it down.
    var live: LiveBackends
    /// The one ordered channel to the main loop: `live`'s logger plugin writes into it, and the
    /// session and the call outcomes will.
    var sink: LiveEventSink
    /// The state folder: `cardwallet.log` and `cardwallet.stderr.log` go there.
    var stateDirectory: StateDirectory?
    /// The email to fill in.
    var email: String = ""
    /// `--book all`: start on every book (the All view), whatever the list showed last.
    var showsAllBooks = false
    /// The password to fill in (the demo's public one); never shown.
    var password: String = ""
    /// Lines for the log pane before any request (the demo's server address, settings warnings).
    var notes: [String] = []
    /// How pictures are drawn; `nil` asks the terminal (``TerminalApp/detectGraphics(environment:)``)
    /// before curses starts.
    var graphics: GraphicsChoice?
    /// The environment whose XDG cache folder holds the local card cache (docs/Cache.md);
    /// `nil` for none. The demo passes one whose cache folder is inside its private temporary
    /// folder, removed with it.
    var cacheEnvironment: [String: String]?
    /// The cached wallet read at the very start (``CardWalletLive/EarlyWallet``), for the first
    /// frame when it is the restored account's; `nil` to read it here.
    var earlyWallet: Task<EarlyWallet?, Never>?
}

/// How the interface ended.
struct TerminalAppOutcome: Sendable {
    /// The state when the loop stopped.
    var state: AppState
    /// The log file, when one was written.
    var logPath: String?
    /// Problems worth telling after the terminal is back (an unusable log file…).
    var warnings: [String]
}

/// Runs the interactive interface: the ncurses backend, the UI core's main loop and the live
/// glue (the call performer on the accounts' wallets, the one ordered event sink feeding the log
/// pane, the log file and session news).
enum TerminalApp {
    /// The live pieces and event sink the interface runs on, built from `settings`.
    ///
    /// - Throws: ``CardWalletLive/ClientSetupError``.
    static func makeLive(
        settings: ClientSettings, environment: [String: String], sessionLogger: Logger? = nil
    ) throws(ClientSetupError) -> (LiveBackends, LiveEventSink) {
        let sink = LiveEventSink(inbox: ActionInbox(frame: .milliseconds(16)))
        let live = try LiveBackends.makeForTerminal(
            settings: settings, environment: environment, sessionLogger: sessionLogger, sink: sink)
        return (live, sink)
    }

    /// Runs until the user quits.
    ///
    /// - Returns: How it ended.
    /// - Throws: ``CursesTerminal/CursesTerminalError`` when the terminal cannot be used, or
    ///   ``CursesTerminal/CursesTerminalError/terminated(signal:)`` after SIGINT/SIGTERM/SIGHUP
    ///   (the terminal is restored either way).
    @MainActor
    static func run(_ setup: TerminalAppSetup) async throws -> TerminalAppOutcome {
        let live = setup.live
        let sink = setup.sink
        var warnings: [String] = []
        var notes = setup.notes

        // A session restored from the token store is known already: the first frame is the
        // list loading, not the login form. From here on the session's news comes through the sink.
        let restored = live.backend.sessionState
        let accounts = WalletAccounts(
            directory: live.directory, account: live.account, backend: live.backend, sessionSink: sink,
            cacheEnvironment: setup.cacheEnvironment, logger: Logger(label: "cardwallet.cache"),
            allowsInsecureHTTP: live.settings.allowInsecureHTTP,
            early: setup.cacheEnvironment == nil ? nil : setup.earlyWallet, home: live.server)
        // The cached wallet (the first frame's cards) is read on another thread while the log
        // files open, the terminal is asked about pictures and curses starts (docs/BENCHMARKS.md #17).
        // Detached: a task of this (main) actor would only start when the main actor first
        // waits, 1–2 ms later, and the first frame would wait for its hops.
        // One book, or every book at once (the All view) when the list last showed them all.
        let shelf = Bookshelf(accounts: accounts)
        let views = BookViews(showsAll: setup.showsAllBooks || shelf.remembered?.showsAll ?? false)
        let cachedWallet: Task<[AppAction], Never>?
        if case .loggedIn = restored, accounts.hasCache {
            cachedWallet = shelf.startFirstFrame(views: views)
        } else {
            views.showsAll = false
            cachedWallet = nil
            Task { await accounts.discardEarly() }
        }

        var logFile: LogFileWriter?
        var strayOutputPath = "/dev/null"
        if let directory = setup.stateDirectory {
            do {
                strayOutputPath = try StrayOutputFile.prepare(in: directory)
                if live.settings.logFile {
                    logFile = try LogFileWriter(directory: directory, maximumBytes: live.settings.logMaxBytes)
                }
            } catch {
                let text = "the network log is not written to a file: \(error.description)"
                warnings.append(text)
                notes.append(text)
            }
        }
        sink.writeLines(to: logFile)

        // The terminal is asked (kitty, DA1 for sixel) now, before curses owns its input.
        let graphics =
            setup.graphics
            ?? Self.detectGraphics(environment: ProcessInfo.processInfo.environment, configured: live.settings.images)
        let pictures = PictureMaker(graphics: graphics)
        notes.append(graphics.description)
        let oauth = live.settings.oauth
        let browserLogin = BrowserLogin(
            issuer: oauth.issuer, clientID: oauth.clientID, clientSecret: oauth.clientSecret, scope: oauth.scope,
            deadline: oauth.redirectTimeout, allowsInsecureHTTP: live.settings.allowInsecureHTTP,
            environment: ProcessInfo.processInfo.environment)
        let performer = CallPerformer(
            accounts: accounts, pictures: pictures, shelf: shelf, views: views, browserLogin: browserLogin)
        // Every book shown syncs in the background every `syncInterval` seconds (0: never).
        let interval = live.settings.syncInterval
        let sync =
            interval > 0
            ? BackgroundSync(
                performer: performer, interval: .seconds(interval), deliver: { sink.inbox.send($0) },
                note: { text, failure in sink.note(text, isFailure: failure) }) : nil
        defer {
            shelf.firstFramePainted()  // nothing waits for a frame that will not come
            sync?.stop()
            accounts.stopReporting()
            performer.removeFiles()
        }
        var state = AppState(
            server: accounts.shownServer, email: setup.email, password: setup.password,
            pageSize: live.settings.pageSize, utcOffsetSeconds: TimeZone.current.secondsFromGMT(),
            pictures: pictures.support)
        state.searchesCache = accounts.hasCache
        state.storedAccounts = accounts.storedAccounts()

        let configuration = CursesBackend.Configuration(strayOutputPath: strayOutputPath)
        let ended: Result<(AppState, [String]), any Error>
        do {
            ended = .success(
                try await CursesTerminal.run(configuration: configuration) { terminal in
                    let runner = AppRunner(
                        state: state, backend: terminal, inbox: sink.inbox, opener: { ExternalOpener.open($0) },
                        reporting: { call, progress in await performer.perform(call, progress: progress) })
                    if case .loggedIn(let account) = restored {
                        sink.restored(account)
                        runner.apply(.session(SessionStatus(restored)))
                        // The cached cards paint the first frame; the server's first page replaces them.
                        for action in await cachedWallet?.value ?? [] { runner.apply(action) }
                    }
                    for note in notes { sink.note(note) }
                    runner.firstFramePainted = { shelf.firstFramePainted() }
                    sync?.start()
                    // Ctrl-C and SIGTERM reach the loop as a quit key; the signal check is a second line.
                    while await runner.step(), terminal.terminationSignal == nil {}
                    // A save pressed just before q: wait for it (Ctrl-C or a signal stops waiting).
                    var unsent: [String] = []
                    if terminal.terminationSignal == nil, runner.state.pendingChanges > 0 {
                        let sent = await runner.finishSending()
                        unsent = Self.unsentChanges(runner.state, allSent: sent)
                    }
                    runner.finish()
                    return (runner.state, unsent)
                })
        } catch {
            ended = .failure(error)
        }
        // The terminal is back. A token refresh on the wire may already have rotated the pair
        // on the server: wait for the new pair to be saved before the transport shuts down and
        // the process ends, or the next start would find the session ended (E06).
        var afterSignal = false
        if case .failure(let error as CursesTerminalError) = ended, case .terminated = error { afterSignal = true }
        await RefreshInterruptGuard.finishRefresh(of: accounts.backend, afterSignal: afterSignal)
        let (final, unsent) = try ended.get()
        warnings += unsent
        if let problem = logFile?.problem { warnings.append("the log file stopped: \(problem)") }
        sink.writeLines(to: nil)
        logFile?.close()
        return TerminalAppOutcome(state: final, logPath: logFile?.path, warnings: warnings)
    }

    /// What to tell after the terminal is back when the user quit while changes were on their
    /// way to the server: the ones that did not make it, or the error the last one got.
    static func unsentChanges(_ state: AppState, allSent: Bool) -> [String] {
        var lines: [String] = []
        if !allSent {
            let count = state.pendingChanges
            lines.append(
                "you quit before \(count) change\(count == 1 ? "" : "s") reached the server; "
                    + "`cardwallet list` shows what it has")
        } else if let message = state.message, message.kind == .error {
            lines.append("while quitting: \(TerminalText.escaped(message.text))")
        }
        let offline = state.offlineChanges.count
        if offline > 0 {
            lines.append(
                "\(offline) change\(offline == 1 ? "" : "s") made offline \(offline == 1 ? "is" : "are") kept in the cache "
                    + "and will be sent the next time the server can be reached (or by `cardwallet sync`)")
        }
        let conflicts = state.offlineConflicts.count + (state.form?.offlineEntry == nil ? 0 : 1)
        if conflicts > 0 {
            lines.append(
                "\(conflicts) change\(conflicts == 1 ? "" : "s") made offline conflict\(conflicts == 1 ? "s" : "") with the "
                    + "server's version and \(conflicts == 1 ? "is" : "are") kept in the cache, unsent: the wallet "
                    + "asks you to choose at the next start")
        }
        let replay = state.reauth?.replay.filter(\.call.isChange).count ?? 0
        if replay > 0 {
            lines.append(
                "\(replay) change\(replay == 1 ? " was" : "s were") not saved: the session ended; "
                    + "log in and make \(replay == 1 ? "it" : "them") again")
        }
        return lines
    }

    /// The picture protocol for the interface: `CARDWALLET_IMAGES`, then the `ui.images`
    /// setting (`configured`), then what the terminal answers (docs/TUI.md).
    static func detectGraphics(environment: [String: String], configured: String) -> GraphicsChoice {
        GraphicsSetup.detect(environment: environment, configured: configured)
    }

    /// ``run(_:)``, with its failure as a value, so the caller can clean up before reporting.
    static func runCatching(_ setup: TerminalAppSetup) async -> Result<TerminalAppOutcome, any Error> {
        do {
            return .success(try await run(setup))
        } catch {
            return .failure(error)
        }
    }

    /// Reports how the interface ended, once the terminal is back.
    ///
    /// - Parameters:
    ///   - outcome: What ``runCatching(_:)`` returned.
    ///   - lines: Lines for standard output after a quit or a termination signal, given the log
    ///     file's path when one was written.
    /// - Throws: `ExitCode` for anything but a normal quit: the terminal error's status
    ///   (1, or 128 + signal), or 1.
    static func finish(_ outcome: Result<TerminalAppOutcome, any Error>, lines: (String?) -> [String] = { _ in [] })
        throws
    {
        switch outcome {
        case .success(let ended):
            let text = lines(ended.logPath)
            if !text.isEmpty { Console.out(text.map { $0 + "\n" }.joined()) }
            for warning in ended.warnings { Console.warning(warning) }
        case .failure(let error as CursesTerminalError):
            if case .terminated = error {
                let text = lines(nil)
                if !text.isEmpty { Console.out(text.map { $0 + "\n" }.joined()) }
            } else {
                TerminalCheck.report(error)
            }
            throw ExitCode(error.exitCode)
        case .failure(let error):
            Console.error("\(error)")
            throw ExitCode.failure
        }
    }
}
