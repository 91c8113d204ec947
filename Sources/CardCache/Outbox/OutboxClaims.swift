import Foundation

/// One replay's turns at the outbox (docs/Cache.md, *The claim and the lease*): it claims the
/// entries one at a time in order, waits while another replay (another process, another task)
/// sends the entry before, and keeps the lease of the entry it sends alive while its request
/// is on the wire.
///
/// ```swift
/// let claims = OutboxClaims(cache: cache)
/// while let (entry, interrupted) = try await claims.next() {
///     if interrupted, try await serverHas(entry) {
///         try cache.markSent(entry.id, by: claims.claimant)
///         continue
///     }
///     let card = try await claims.renewing(entry.id) { try await send(entry) }
///     try cache.markSent(entry.id, by: claims.claimant, newCardID: card.id)
/// }
/// ```
public struct OutboxClaims: Sendable {
    /// How long a claim holds without renewal: a process that ends while sending holds the
    /// others up at most this long; one that lives renews it every third of it.
    public static let defaultLease: Duration = .seconds(30)

    /// The cache whose outbox is sent.
    public let cache: CardCache
    /// Who claims: this replay.
    public let claimant: OutboxClaimant
    /// How long each claim holds without renewal.
    public let lease: Duration
    private let clock: any Clock<Duration>
    private let poll: Duration

    /// The turns of a new claimant (this process, a fresh token).
    ///
    /// - Parameters:
    ///   - cache: the cache whose outbox is sent.
    ///   - lease: how long a claim holds without renewal.
    ///   - poll: how often to look again while another replay sends the entry before.
    ///   - clock: what the waits and the renewals run on.
    public init(
        cache: CardCache, claimant: OutboxClaimant = OutboxClaimant(), lease: Duration = defaultLease,
        poll: Duration = .milliseconds(100), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.cache = cache
        self.claimant = claimant
        self.lease = lease
        self.poll = poll
        self.clock = clock
    }

    /// The next entry to send, claimed, and whether an earlier claimant was interrupted while
    /// sending it (check the server before sending it again); `nil` when nothing is left or the
    /// task is cancelled. While another claimant holds the entry before, waits until it is
    /// settled or its lease runs out.
    public func next() async throws(CacheError) -> (entry: OutboxEntry, interrupted: Bool)? {
        while !Task.isCancelled {
            switch try cache.claimNext(by: claimant, lease: lease) {
            case .claimed(let entry, let interrupted):
                return (entry, interrupted)
            case .empty:
                return nil
            case .held(let entry):
                // A claim of a process that is gone (killed while sending) is taken over at once,
                // as if its lease had run out; else no way to be told across processes: look
                // again shortly.
                if let holder = entry.claimant, holder.processID != getpid(),
                    !OutboxClaimant.isRunning(holder.processID),
                    (try? cache.releaseAbandoned(entry.id, by: holder)) == true
                {
                    continue
                }
                do { try await clock.sleep(for: poll) } catch { return nil }
            }
        }
        return nil
    }

    /// Runs `body` — the request that sends entry `id` — while the claim is renewed every third
    /// of the lease, so a slow server never lets another replay take a live claim over.
    public func renewing<T>(_ id: Int64, _ body: () async throws -> T) async rethrows -> T {
        let (cache, claimant, lease, clock) = (self.cache, self.claimant, self.lease, self.clock)
        let renewal = Task {
            while true {
                do { try await clock.sleep(for: lease / 3) } catch { return }
                // A claim lost (taken over, settled) is not renewed again; a file busy for a moment
                // is tried again at the next beat, well before the lease runs out.
                let renewed: Bool
                do {
                    renewed = try cache.renewClaim(id, by: claimant, lease: lease)
                } catch {
                    continue
                }
                guard renewed else { return }
            }
        }
        defer { renewal.cancel() }
        return try await body()
    }
}
