/// Where a sync left off, to give the next sync: opaque, kept as its ``rawValue`` (a string) in
/// the caller's cache. It holds the server's RFC 6578 sync token, or, for a server without
/// sync tokens, the collection's `getctag` (so that an unchanged book costs one request).
public struct CardDAVSyncToken: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// `sync:<server token>` or `ctag:<ctag>`.
    public let rawValue: String

    /// A token kept from an earlier sync, or `nil` for a string no sync made.
    public init?(rawValue: String) {
        guard rawValue.hasPrefix("sync:") || rawValue.hasPrefix("ctag:") else { return nil }
        self.rawValue = rawValue
    }

    /// A server sync token.
    public static func sync(_ token: String) -> CardDAVSyncToken { CardDAVSyncToken(raw: "sync:" + token) }

    /// A collection tag, for servers without sync tokens.
    public static func ctag(_ tag: String) -> CardDAVSyncToken { CardDAVSyncToken(raw: "ctag:" + tag) }

    private init(raw: String) { rawValue = raw }

    /// The server's sync token, when this is one.
    public var serverToken: String? { rawValue.hasPrefix("sync:") ? String(rawValue.dropFirst(5)) : nil }

    /// The collection tag, when this is one.
    public var collectionTag: String? { rawValue.hasPrefix("ctag:") ? String(rawValue.dropFirst(5)) : nil }

    /// The raw value.
    public var description: String { rawValue }
}

/// One answer to `sync-collection`: what changed since the token sent, and the new token.
public struct SyncPage: Sendable, Hashable {
    /// Members added or changed, with their new ETags.
    public var changed: [ResourceVersion]
    /// Members removed.
    public var removed: [String]
    /// The new token, or `nil` when the answer had none.
    public var token: String?
    /// Whether the server sent only part of the changes (a `507` for the collection, or
    /// `number-of-matches-within-limits`): ask again with ``token`` for the rest.
    public var truncated: Bool

    /// A page.
    public init(changed: [ResourceVersion] = [], removed: [String] = [], token: String?, truncated: Bool = false) {
        self.changed = changed
        self.removed = removed
        self.token = token
        self.truncated = truncated
    }
}

/// Every member of an address book with its ETag (`PROPFIND`, `Depth: 1`), and the
/// collection's own tags.
public struct ETagListing: Sendable, Hashable {
    /// Every card in the book.
    public var members: [ResourceVersion]
    /// The collection's `sync-token`, when the server has them.
    public var syncToken: String?
    /// The collection's `getctag`, when the server has one.
    public var ctag: String?

    /// A listing.
    public init(members: [ResourceVersion], syncToken: String? = nil, ctag: String? = nil) {
        self.members = members
        self.syncToken = syncToken
        self.ctag = ctag
    }
}

/// Why a sync read the whole listing instead of the changes since the token.
public enum SyncFallback: Sendable, Hashable {
    /// The server refused the token (`valid-sync-token`: it forgot it, or the book was reset).
    case tokenRefused
    /// The server does not offer `sync-collection` here (it answered this status to it, or
    /// the book does not list the report).
    case syncUnsupported(status: Int?)
    /// Truncated answers stopped making progress (the same token back, or too many rounds).
    case noProgress
    /// An answer to `sync-collection` came without a new token.
    case missingToken
    /// The collection tag changed (a server without sync tokens).
    case collectionChanged
}

/// What a sync found: the changes since the token, or the whole listing to diff against.
public struct SyncDelta: Sendable, Hashable {
    /// How to read ``changed`` and ``removed``.
    public enum Kind: Sendable, Hashable {
        /// Changes since the token: ``changed`` and ``removed`` are all that moved.
        case changes
        /// Every member: ``changed`` lists the whole book, and whatever the caller holds that
        /// is not in it is gone (``plan(known:)`` does the diff).
        case fullListing
    }

    /// How to read the lists.
    public var kind: Kind
    /// Changed members (``Kind/changes``), or every member (``Kind/fullListing``); each href once.
    public var changed: [ResourceVersion]
    /// Removed members (``Kind/changes`` only); each href once, none also in ``changed``.
    public var removed: [String]
    /// The token for the next sync, or `nil` when the server offers neither sync tokens nor
    /// a collection tag (every sync then lists every ETag).
    public var token: CardDAVSyncToken?
    /// Why the whole listing was read, when it was read for a reason.
    public var fallback: SyncFallback?
    /// How many requests the sync took.
    public var requests: Int

    /// A delta.
    public init(
        kind: Kind, changed: [ResourceVersion], removed: [String], token: CardDAVSyncToken?,
        fallback: SyncFallback? = nil, requests: Int
    ) {
        self.kind = kind
        self.changed = changed
        self.removed = removed
        self.token = token
        self.fallback = fallback
        self.requests = requests
    }

    /// What the caller must read and drop, given the ETags it holds (href → ETag): the cards to
    /// fetch (new, or with another ETag, or with an ETag the answer left out) and the hrefs to
    /// remove. A full listing removes every known href it does not list.
    public func plan(known: [String: String]) -> (fetch: [String], remove: [String]) {
        let fetch = changed.filter { member in
            guard let etag = member.etag else { return true }
            return known[member.href] != etag
        }.map(\.href)
        switch kind {
        case .changes:
            return (fetch, removed.filter { known[$0] != nil })
        case .fullListing:
            let listed = Set(changed.map(\.href))
            return (fetch, known.keys.filter { !listed.contains($0) }.sorted())
        }
    }
}
