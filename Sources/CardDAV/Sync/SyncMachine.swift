/// The sync of one address book as a pure state machine: it says which request to send next,
/// is told what came back, and ends with a ``SyncDelta`` or an error. ``CardDAVClient/sync(_:since:)``
/// drives it; tests drive it by hand (docs/CardDAV.md draws it).
///
/// - With a server sync token: `sync-collection` since it; truncated answers (507,
///   `number-of-matches-within-limits`) are followed with the token they carry until the rest
///   has come, changes merged so that each href appears once, its last state winning.
/// - Without a token, on a book with sync tokens: `sync-collection` with an empty token, which
///   lists every member and gives the first token (a full listing).
/// - A refused token, or `sync-collection` not offered: `PROPFIND Depth: 1` of every ETag,
///   with the collection's sync token or ctag for next time; the caller diffs.
/// - With a ctag (a server without sync tokens): `PROPFIND Depth: 0` of the ctag; unchanged,
///   the sync is over in that one request; changed, the ETag listing.
public struct SyncMachine: Sendable {
    /// The request to send next, or the end.
    public enum Action: Sendable, Hashable {
        /// `REPORT sync-collection` since this server token (`nil`: the first sync).
        case requestChanges(since: String?)
        /// `PROPFIND Depth: 0` for the collection's `getctag` and `sync-token`.
        case readCollectionTag
        /// `PROPFIND Depth: 1` for every member's `getetag`, and the collection's tags.
        case listETags
        /// Done.
        case finish(SyncDelta)
        /// Failed; nothing learned is to be kept.
        case fail(CardDAVError)
    }

    /// What the last request brought.
    public enum Event: Sendable, Hashable {
        /// A `sync-collection` answer.
        case changes(SyncPage)
        /// `sync-collection` refused the token (`valid-sync-token`, as 403, 409 or 412).
        case tokenRefused
        /// `sync-collection` is not available (405, 501, 507, another 4xx without a reason).
        case syncUnavailable(status: Int?)
        /// The collection's tags.
        case collectionTag(ctag: String?, syncToken: String?)
        /// The ETag listing.
        case listing(ETagListing)
        /// The request failed.
        case failed(CardDAVError)
    }

    private enum MemberState: Sendable, Hashable {
        case present(etag: String?)
        case removed
    }

    private enum Phase: Sendable, Hashable {
        case idle
        case changes(sent: String?, fullListing: Bool)
        case collectionTag(String)
        case listing(SyncFallback?)
        case done
    }

    private let since: CardDAVSyncToken?
    private let supportsSyncCollection: Bool
    private let maximumRounds: Int
    private var phase = Phase.idle
    private var requests = 0
    private var rounds = 0
    /// Each href's last state, and the order hrefs came in.
    private var latest: [String: MemberState] = [:]
    private var order: [String] = []

    /// A sync.
    ///
    /// - Parameters:
    ///   - since: the token of the last sync, or `nil` for the first.
    ///   - supportsSyncCollection: whether the book offers `sync-collection` (discovery says;
    ///     when unsure, `true`: a refusal falls back to the listing).
    ///   - maximumRounds: the most `sync-collection` requests one sync follows truncations for.
    public init(since: CardDAVSyncToken?, supportsSyncCollection: Bool = true, maximumRounds: Int = 100) {
        self.since = since
        self.supportsSyncCollection = supportsSyncCollection
        self.maximumRounds = max(1, maximumRounds)
    }

    /// The first request.
    public mutating func start() -> Action {
        guard case .idle = phase else { return .fail(.invalidRequest("This sync has already started.")) }
        if let token = since?.serverToken {
            return requestChanges(since: token, fullListing: false)
        }
        if let ctag = since?.collectionTag {
            phase = .collectionTag(ctag)
            return request(.readCollectionTag)
        }
        if supportsSyncCollection { return requestChanges(since: nil, fullListing: true) }
        return listETags(because: nil)
    }

    /// The next request after `event`.
    public mutating func receive(_ event: Event) -> Action {
        if case .failed(let error) = event { return end(.fail(error)) }
        switch (phase, event) {
        case (.changes(let sent, let fullListing), .changes(let page)):
            merge(page)
            guard let token = page.token, !token.isEmpty else { return listETags(because: .missingToken) }
            if page.truncated {
                guard token != sent, rounds < maximumRounds else { return listETags(because: .noProgress) }
                return requestChanges(since: token, fullListing: fullListing)
            }
            return finish(fullListing ? .fullListing : .changes, token: .sync(token), fallback: nil)
        case (.changes, .tokenRefused):
            return listETags(because: .tokenRefused)
        case (.changes, .syncUnavailable(let status)):
            return listETags(because: .syncUnsupported(status: status))
        case (.collectionTag(let known), .collectionTag(let ctag, let syncToken)):
            if let ctag, ctag == known {
                return finish(.changes, token: .ctag(ctag), fallback: nil)
            }
            if syncToken != nil && supportsSyncCollection {
                // The server has sync tokens now: start over with a first sync-collection.
                return requestChanges(since: nil, fullListing: true)
            }
            return listETags(because: .collectionChanged)
        case (.listing(let fallback), .listing(let listing)):
            latest = [:]
            order = []
            for member in listing.members { record(member.href, etag: member.etag) }
            let token = listing.syncToken.map(CardDAVSyncToken.sync) ?? listing.ctag.map(CardDAVSyncToken.ctag)
            return finish(.fullListing, token: token, fallback: fallback)
        default:
            return end(.fail(.invalidRequest("The sync got an answer it did not ask for (\(event)).")))
        }
    }

    // MARK: Steps

    private mutating func requestChanges(since token: String?, fullListing: Bool) -> Action {
        rounds += 1
        phase = .changes(sent: token, fullListing: fullListing)
        return request(.requestChanges(since: token))
    }

    private mutating func listETags(because reason: SyncFallback?) -> Action {
        phase = .listing(reason)
        return request(.listETags)
    }

    private mutating func request(_ action: Action) -> Action {
        requests += 1
        return action
    }

    private mutating func finish(_ kind: SyncDelta.Kind, token: CardDAVSyncToken?, fallback: SyncFallback?) -> Action {
        var changed: [ResourceVersion] = []
        var removed: [String] = []
        changed.reserveCapacity(order.count)
        for href in order {
            switch latest[href] {
            case .present(let etag): changed.append(ResourceVersion(href: href, etag: etag))
            case .removed where kind == .changes: removed.append(href)
            default: break
            }
        }
        return end(
            .finish(
                SyncDelta(
                    kind: kind, changed: changed, removed: removed, token: token, fallback: fallback,
                    requests: requests)))
    }

    private mutating func end(_ action: Action) -> Action {
        phase = .done
        latest = [:]
        order = []
        return action
    }

    private mutating func merge(_ page: SyncPage) {
        for member in page.changed { record(member.href, etag: member.etag) }
        for href in page.removed {
            if latest[href] == nil { order.append(href) }
            latest[href] = .removed
        }
    }

    private mutating func record(_ href: String, etag: String?) {
        if latest[href] == nil { order.append(href) }
        latest[href] = .present(etag: etag)
    }
}
