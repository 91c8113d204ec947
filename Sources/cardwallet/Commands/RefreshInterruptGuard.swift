import CardBackend
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

    /// Starts guarding `backend`'s session work (a token refresh on the wire).
    ///
    /// - Parameters:
    ///   - backend: the backend whose session work must not be cut short.
    ///   - alreadyInterrupted: whether the user already asked to stop (the interface quit after
    ///     a signal): then any signal ends the process at once, as a second one would.
    init(backend: any CardBackend, alreadyInterrupted: Bool = false) {
        let handler = Handler(backend: backend, isWaiting: alreadyInterrupted)
        let sources = Self.signals.map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: Self.queue)
            source.setEventHandler { handler.handle(number) }
            source.resume()
            return source
        }
        self.sources = Mutex(sources)
    }

    /// Before a process that is ending (the interface quit) shuts its transport down: when a
    /// refresh of `backend`'s session is on the wire, says so and waits until the new pair is
    /// saved (or the refresh fails, or the backend's ``CardBackend/CardBackend/sessionWorkTimeout``
    /// passes), guarding against signals meanwhile. Returns at once when no refresh is under way.
    ///
    /// - Parameters:
    ///   - backend: the backend whose session may be refreshing.
    ///   - afterSignal: whether a signal ended the interface: any further one then ends the
    ///     process at once; otherwise the first waits as it does in a scripting command.
    static func finishRefresh(of backend: any CardBackend, afterSignal: Bool) async {
        guard case .refreshing = backend.sessionState else { return }
        let interrupts = RefreshInterruptGuard(backend: backend, alreadyInterrupted: afterSignal)
        Console.warning(
            "finishing the token refresh under way so that the session is kept; "
                + (afterSignal ? "send the signal again" : "press Ctrl-C twice") + " to stop at once")
        await backend.finishSessionWork()
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
        let backend: any CardBackend
        let isWaiting: Mutex<Bool>

        init(backend: any CardBackend, isWaiting: Bool) {
            self.backend = backend
            self.isWaiting = Mutex(isWaiting)
        }

        func handle(_ number: Int32) {
            guard case .refreshing = backend.sessionState else { RefreshInterruptGuard.terminate(number) }
            let alreadyWaiting = isWaiting.withLock { waiting in
                defer { waiting = true }
                return waiting
            }
            guard !alreadyWaiting else { RefreshInterruptGuard.terminate(number) }
            Console.warning(
                "finishing the token refresh under way so that the session is kept; "
                    + "send the signal again (Ctrl-C) to stop at once")
            let backend = backend
            Task {
                await backend.finishSessionWork()
                RefreshInterruptGuard.terminate(number)
            }
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
