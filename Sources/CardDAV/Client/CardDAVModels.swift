public import Foundation

/// An address book collection, as discovery finds it.
public struct AddressBook: Sendable, Hashable {
    /// The collection's URL (on the server's origin, ending in `/`).
    public var url: URL
    /// The collection's canonical absolute path, for example `/alice/contacts/`: a stable id.
    public var href: String
    /// The `displayname`, when the server gives one (untrusted text: escape it for a terminal).
    public var displayName: String?
    /// The `addressbook-description`, when the server gives one (untrusted text).
    public var summary: String?
    /// The collection's current `sync-token`, when the server has them.
    public var syncToken: String?
    /// The collection's `getctag` (a tag that changes with any member), when the server has one.
    public var ctag: String?
    /// Whether the server offers RFC 6578 `sync-collection` on it (its `supported-report-set`
    /// names it, or it has a `sync-token`).
    public var supportsSyncCollection: Bool

    /// An address book.
    public init(
        url: URL, href: String, displayName: String? = nil, summary: String? = nil, syncToken: String? = nil,
        ctag: String? = nil, supportsSyncCollection: Bool = false
    ) {
        self.url = url
        self.href = href
        self.displayName = displayName
        self.summary = summary
        self.syncToken = syncToken
        self.ctag = ctag
        self.supportsSyncCollection = supportsSyncCollection
    }
}

/// What discovery found for the account: its principal, its address book homes, and its books.
public struct CardDAVAccount: Sendable, Hashable {
    /// The `current-user-principal`, when the server names one.
    public var principal: URL?
    /// The `addressbook-home-set` collections that were listed.
    public var homes: [URL]
    /// The address books, in the server's order (possibly none: a new account on Radicale has
    /// none until a client makes one).
    public var books: [AddressBook]
    /// The address book the given URL named, when it named one.
    public var selected: AddressBook?

    /// An account.
    public init(principal: URL?, homes: [URL], books: [AddressBook], selected: AddressBook? = nil) {
        self.principal = principal
        self.homes = homes
        self.books = books
        self.selected = selected
    }
}

/// A member of an address book and its ETag: what a sync reports.
public struct ResourceVersion: Sendable, Hashable {
    /// The card's canonical absolute path, for example `/alice/contacts/ada.vcf`: its id.
    public var href: String
    /// Its ETag as the server gave it (quotes included; opaque, compared only for equality),
    /// or `nil` when the answer left it out (read the card to learn it).
    public var etag: String?

    /// A member.
    public init(href: String, etag: String?) {
        self.href = href
        self.etag = etag
    }
}

/// A card as the server holds it.
public struct DAVResource: Sendable, Hashable {
    /// The card's canonical absolute path.
    public var href: String
    /// Its ETag, when the server gave one.
    public var etag: String?
    /// The vCard text. Read through a multiget it has LF line ends (XML turns CR LF into LF);
    /// read with ``CardDAVClient/get(_:)`` it has the bytes the server stores.
    public var vcard: String
    /// When the server says it last changed (`getlastmodified`, `Last-Modified`), when it says.
    public var lastModified: Date?

    /// A card.
    public init(href: String, etag: String?, vcard: String, lastModified: Date? = nil) {
        self.href = href
        self.etag = etag
        self.vcard = vcard
        self.lastModified = lastModified
    }

    /// An HTTP date (RFC 9110's preferred form, `Sun, 06 Nov 1994 08:49:37 GMT`), or `nil`.
    public static func date(http text: String?) -> Date? {
        text.flatMap { DAVDates.http($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// What a multiget found.
public struct MultigetResult: Sendable, Hashable {
    /// The cards the server sent, in its order.
    public var found: [DAVResource]
    /// The hrefs the server said are not there (404), or that it left out of its answer.
    public var missing: [String]

    /// A result.
    public init(found: [DAVResource] = [], missing: [String] = []) {
        self.found = found
        self.missing = missing
    }
}

/// What a `PUT` left on the server.
public struct StoredCard: Sendable, Hashable {
    /// The card's canonical absolute path.
    public var href: String
    /// The ETag of what the server stores now, or `nil` when it gave none even when asked.
    public var etag: String?
    /// What the server stores, when the client read it back (the `PUT` answer had no ETag, or
    /// a read-back was asked for); `nil` when the server's ETag vouches for the bytes sent.
    /// Servers may rewrite a vCard on upload (Radicale does): docs/CardDAV.md.
    public var vcard: String?

    /// A stored card.
    public init(href: String, etag: String?, vcard: String? = nil) {
        self.href = href
        self.etag = etag
        self.vcard = vcard
    }
}
