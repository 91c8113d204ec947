import ArgumentParser
import CardBackend
import CardModels
import CardProviders
import CardWalletLive
import CardWalletUI
import Foundation
import Logging
import Secrets
import Synchronization
import TokenStore

/// What a scripting command's body gets: the account's backend and wallet, and the settings
/// they were built from.
struct CommandContext: Sendable {
    /// The live pieces (shut down by the runner after the body).
    let live: LiveBackends
    /// The accounts' lifecycle: the backend, the wallet, login and logout.
    let accounts: WalletAccounts
    /// The settings, with each value's origin.
    let resolved: ResolvedClientSettings

    /// Whether `--offline` was given.
    let offline: Bool
    /// The process environment (for the cache's folder).
    let environment: [String: String]
    /// Every address book of every stored account (`--book all`, names of cards, moves).
    let shelf: Bookshelf
    /// Whether `--book all` was given (`list`, `query`, `export`, `sync`).
    let allBooks: Bool

    /// Where the cards live.
    var backend: any CardBackend { accounts.backend }

    /// How reads reach the cards.
    var mode: WalletReadMode { offline ? .offline : .online }

    /// The wallet through the local cache of the logged-in account (docs/Cache.md): every read
    /// and write of a command goes through it.
    func wallet() async -> CachedWallet {
        await accounts.wallet()
    }

    /// The picture file at `path` checked for upload to this backend; nothing is sent.
    ///
    /// - Throws: ``CardBackend/ImageUploadError`` naming the file and what is wrong with it.
    func checkedImage(_ path: String) throws -> ImageUpload {
        try ImageUpload(validating: URL(fileURLWithPath: path), maximumBytes: backend.maximumImageBytes)
    }

    /// Says on standard error that the answer came from the cache.
    static func sayOffline(_ asOf: Date?) {
        guard let asOf else { return }
        Console.err("offline — cards as of \(OfflineTime.text(asOf))\n")
    }
}

/// The time of an offline answer: `14:02` today, `2026-11-23 14:02` on another day, on a
/// 24-hour clock whatever the locale (the TUI's status bar says the same), in `calendar`'s time
/// zone (local time by default).
enum OfflineTime {
    static func text(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
        // The status bar's clock, not a format style: `.hour(.twoDigits(amPM: .omitted))` is a
        // 12-hour clock with the AM/PM marker dropped, so 15:18 read "03:18".
        let time = Connection.clock(date, calendar.timeZone.secondsFromGMT(for: date))
        guard !calendar.isDate(date, inSameDayAs: now) else { return time }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0) + time
    }
}

/// Runs a scripting command: resolves the settings, bootstraps logging, builds the live client,
/// runs the body, shuts the transport down, and turns every failure into one or two sentences
/// on standard error and a distinct exit status (``CLIExitCode``). Never a stack trace.
enum ClientCommandRunner {
    /// Runs `body` with a live client built from `options`.
    ///
    /// - Parameters:
    ///   - options: the shared client options.
    ///   - environment: the process environment.
    ///   - body: the command's work.
    /// - Throws: `ExitCode` with the status for the failure, after printing its message.
    static func run(
        _ options: ClientOptions, environment: [String: String]? = nil, reads: Bool = false,
        choosingAccount: Bool = true, allowsAllBooks: Bool = false, _ body: (CommandContext) async throws -> Void
    ) async throws {
        let environment = environment ?? environmentOverride ?? ProcessInfo.processInfo.environment
        var resolved: ResolvedClientSettings
        do {
            resolved = try await options.resolveSettings(environment: environment)
        } catch {
            Console.error(error.description)
            throw ExitCode(CLIExitCode.usage)
        }
        // `--book all` is every book of every account, not a book of the one in use.
        let allBooks = resolved.settings.book.map(AllBooks.isAll) ?? false
        if allBooks {
            guard allowsAllBooks else {
                Console.error(AllBooks.refusal)
                throw ExitCode(CLIExitCode.usage)
            }
            resolved.settings.book = nil
        }
        for warning in resolved.warnings { Console.warning(warning) }
        if options.offline && !reads {
            // Changes are never queued silently: a script must know the server has not got them.
            Console.error("offline (--offline): this command changes cards and needs the server; nothing was changed.")
            throw ExitCode(CLIExitCode.networkFailure)
        }
        bootstrapLogging(level: resolved.settings.logLevel)

        let live: LiveBackends
        do {
            live = try LiveBackends.make(
                settings: resolved.settings, environment: environment,
                networkLogger: Logger(label: "cardwallet.network"), sessionLogger: Logger(label: "cardwallet.session"),
                eventSink: options.verbose ? VerboseEventLines() : nil,
                // A command reads no recent events (-v and the log are written as events happen):
                // a ring of 500 would keep up to 64 KiB of each of the last answers alive, 13 MB
                // through a first sync of 20,000 CardDAV cards.
                recentCapacity: 0, providers: Self.providersOverride ?? Providers.standard,
                keyring: Self.keyringOverride, choosingAccount: choosingAccount)
        } catch {
            Console.error(error.description)
            throw ExitCode(CLIExitCode.usage)
        }
        let backend = live.backend
        let accounts = WalletAccounts(
            directory: live.directory, account: live.account, backend: backend, cacheEnvironment: environment,
            logger: Logger(label: "cardwallet.cache"), allowsInsecureHTTP: resolved.settings.allowInsecureHTTP,
            home: live.server)
        // Ctrl-C during a token refresh waits for the new pair to be saved, so it cannot end
        // the session; at any other moment it stops the command at once.
        let interrupts = RefreshInterruptGuard(backend: backend)
        // A first sync of a large address book reads every card: a progress line on a terminal.
        let syncing = Progress("syncing cards")
        // …and the first search after it indexes them.
        let indexing = Progress("indexing cards for search")
        var status: Int32
        do {
            let progress = ListingProgress(update: { syncing.update($0, of: nil) }, finish: { syncing.finish() })
            let indexed = ListingProgress(update: { indexing.update($0, of: nil) }, finish: { indexing.finish() })
            let shelf = Bookshelf(accounts: accounts)
            try await CachedWallet.$listingProgress.withValue(progress) {
                try await CachedWallet.$indexingProgress.withValue(indexed) {
                    // A move, a copy or a merge waiting in an outbox reaches its other book.
                    try await CachedWallet.$transferPeers.withValue(shelf) {
                        try await body(
                            CommandContext(
                                live: live, accounts: accounts, resolved: resolved, offline: options.offline,
                                environment: environment, shelf: shelf, allBooks: allBooks))
                    }
                }
            }
            status = 0
        } catch {
            // The server ended the session: the cards of that account go with it (its outbox stays).
            await accounts.handleSessionEnd(error)
            status = report(await checkingServer(error, of: backend), settings: resolved)
        }
        if status == 0, let failure = Console.outputFailure {
            Console.error("could not write the output: \(failure.lowercased()). It is incomplete.")
            status = CLIExitCode.failure
        }
        interrupts.uninstall()
        await live.shutdown()
        if status != 0 { throw ExitCode(status) }
    }

    /// `error`, or — when it is "not logged in" — what keeps a login from working too: a server
    /// that cannot be reached (exit 6) or an address that is not the server's base URL (64),
    /// found as `login` finds them (``CardBackend/CardBackend/serverProblem()``). Without a
    /// session the command sent nothing, so "Not logged in" alone would send the user to a login
    /// that fails.
    static func checkingServer(_ error: any Error, of backend: any CardBackend) async -> any Error {
        guard BackendFailures.kind(of: error) == .notLoggedIn else { return error }
        return await backend.serverProblem() ?? error
    }

    /// The providers the commands know instead of ``CardWalletLive/Providers/standard``: a test's
    /// list with its own added, for as long as its task runs (task-local, so tests running side by
    /// side never see each other's).
    @TaskLocal static var providersOverride: [any BackendProvider]?

    /// The keyring the commands keep passwords in instead of the session's: a test's (task-local).
    @TaskLocal static var keyringOverride: (any SecretStore)?

    /// The environment the commands run in instead of the process's: a test's (task-local).
    @TaskLocal static var environmentOverride: [String: String]?

    /// Prints `error` and returns its exit status.
    ///
    /// - Parameters:
    ///   - error: what the command threw.
    ///   - settings: the settings in use, so a message about the server address can say which
    ///     one it is and where it came from.
    static func report(_ error: any Error, settings: ResolvedClientSettings? = nil) -> Int32 {
        switch error {
        case let error as any BackendFailure:
            Console.error(message(for: error, settings: settings))
            return CLIExitCode.status(for: error)
        case let error as OfflineReadError:
            Console.error(error.description)
            return error.isNotFound ? CLIExitCode.notFound : CLIExitCode.networkFailure
        case let error as CommandFailure:
            Console.error(error.message)
            return error.status
        case let error as ClientSetupError:
            Console.error(error.description)
            return CLIExitCode.usage
        case let error as TokenStoreError:
            Console.error(error.description)
            return CLIExitCode.failure
        case let error as PromptError:
            Console.error(error.description)
            return error.status
        case let error as ExitCode:
            return error.rawValue
        default:
            // Anything else (an encoding failure, say): its description, never a dump.
            Console.error("unexpected failure: \(TerminalText.escaped(String(describing: error)))")
            return CLIExitCode.failure
        }
    }

    /// The text for a backend's failure, with what to type where the library's text cannot say.
    static func message(for error: any BackendFailure, settings: ResolvedClientSettings? = nil) -> String {
        if error.failureKind == .wrongAddress {
            // The library says the address is probably wrong; say which one and where it is set.
            let inUse = settings.map {
                " The address in use is \(TerminalText.escaped($0.settings.server)) "
                    + "(from \(TerminalText.escaped($0.origin(of: .server).description)))."
            }
            return error.description + (inUse ?? "") + " " + ClientSetupError.whereToSetTheServer
        }
        guard case .multipleAccounts(let server, let accounts) = error.failureKind else { return error.description }
        let list = accounts.map(TerminalText.escaped).joined(separator: ", ")
        return "Several accounts are logged in at \(TerminalText.escaped(server)) (\(list)). Choose one with "
            + "--account NAME (`cardwallet accounts` lists them)."
    }

    private static let bootstrapped = Mutex(false)

    /// Sends swift-log output at `level` and above to standard error, once per process, with
    /// messages and metadata made terminal-safe (``TerminalSafeLogHandler``).
    static func bootstrapLogging(level: Logger.Level) {
        // Commands a test runs in its own process print into its capture: the test process's
        // logging is not theirs to set up.
        guard Console.capture == nil else { return }
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        LoggingSystem.bootstrap { label in
            var handler = TerminalSafeLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
