import CardAPI
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps Ctrl-C (SIGINT), SIGTERM and SIGHUP from ending a scripting command while a token
/// refresh is on the wire.
///
/// Refresh tokens rotate, and the server ends the whole session when a spent one is presented
/// again. A process killed after the server rotated the pair but before the new pair reached
/// the token file would leave only the spent refresh token behind, and the next command would
/// find the session ended (E06). So while the session is refreshing, a signal waits until the
/// new pair is saved (or the refresh fails, or ``maximumWait`` passes), then ends the process as
/// the signal would have; a second signal ends it at once. At any other moment a signal ends
/// the process at once, as usual.
final class RefreshInterruptGuard: Sendable {
    /// The signals that would end a command.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let sources: Mutex<[any DispatchSourceSignal]>
    private static let queue = DispatchQueue(label: "cardwallet.signals")

    /// Starts guarding `session`'s refreshes.
    ///
    /// - Parameters:
    ///   - session: the session whose refreshes must not be cut short.
    ///   - maximumWait: the longest a signal waits for a refresh (the refresh's own timeout, and a little).
    ///   - alreadyInterrupted: whether the user already asked to stop (the interface quit after
    ///     a signal): then any signal ends the process at once, as a second one would.
    init(session: CardSession, maximumWait: Duration, alreadyInterrupted: Bool = false) {
        let handler = Handler(session: session, maximumWait: maximumWait, isWaiting: alreadyInterrupted)
        let sources = Self.signals.map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: Self.queue)
            source.setEventHandler { handler.handle(number) }
            source.resume()
            return source
        }
        self.sources = Mutex(sources)
    }

    /// Starts guarding `client`'s refreshes, for as long as a refresh may take.
    convenience init(client: CardAPIClient, alreadyInterrupted: Bool = false) {
        self.init(
            session: client.session, maximumWait: Self.maximumWait(for: client), alreadyInterrupted: alreadyInterrupted)
    }

    /// The longest a stop waits for `client`'s refresh: the refresh's own timeout, and a little.
    static func maximumWait(for client: CardAPIClient) -> Duration {
        client.configuration.session.authTimeout + .seconds(5)
    }

    /// Before a process that is ending (the interface quit) shuts its transport down: when a
    /// refresh of `client`'s session is on the wire, says so and waits until the new pair is
    /// saved (or the refresh fails, or ``maximumWait(for:)`` passes), guarding against signals
    /// meanwhile. Returns at once when no refresh is under way.
    ///
    /// - Parameters:
    ///   - client: the client whose session may be refreshing.
    ///   - afterSignal: whether a signal ended the interface: any further one then ends the
    ///     process at once; otherwise the first waits as it does in a scripting command.
    static func finishRefresh(of client: CardAPIClient, afterSignal: Bool) async {
        guard case .refreshing = client.session.state else { return }
        let interrupts = RefreshInterruptGuard(client: client, alreadyInterrupted: afterSignal)
        Console.warning(
            "finishing the token refresh under way so that the session is kept; "
                + (afterSignal ? "send the signal again" : "press Ctrl-C twice") + " to stop at once")
        await waitWhileRefreshing(client.session, upTo: maximumWait(for: client))
        interrupts.uninstall()
    }

    /// Stops guarding: the signals' default actions apply again.
    func uninstall() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources = []
        }
        // Dispatch leaves its own handler installed after a cancel; put the default back.
        for number in Self.signals { _ = signal(number, SIG_DFL) }
    }

    /// What a signal does: end the process now, or after the refresh on the wire.
    private final class Handler: Sendable {
        let session: CardSession
        let maximumWait: Duration
        let isWaiting: Mutex<Bool>

        init(session: CardSession, maximumWait: Duration, isWaiting: Bool) {
            self.session = session
            self.maximumWait = maximumWait
            self.isWaiting = Mutex(isWaiting)
        }

        func handle(_ number: Int32) {
            guard case .refreshing = session.state else { RefreshInterruptGuard.terminate(number) }
            let alreadyWaiting = isWaiting.withLock { waiting in
                defer { waiting = true }
                return waiting
            }
            guard !alreadyWaiting else { RefreshInterruptGuard.terminate(number) }
            Console.warning(
                "finishing the token refresh under way so that the session is kept; "
                    + "send the signal again (Ctrl-C) to stop at once")
            let session = session
            let maximumWait = maximumWait
            Task {
                await RefreshInterruptGuard.waitWhileRefreshing(session, upTo: maximumWait)
                RefreshInterruptGuard.terminate(number)
            }
        }
    }

    /// Returns once `session` is not refreshing, or after `limit`.
    static func waitWhileRefreshing(_ session: CardSession, upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await session.finishRefreshInFlight() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends the process by `number`'s default action, so the parent sees the signal (a shell
    /// shows 128 + number); exits with that status should the signal not be delivered.
    static func terminate(_ number: Int32) -> Never {
        _ = signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        kill(getpid(), number)
        exit(128 + number)
    }
}
