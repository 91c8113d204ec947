import Foundation
import Logging
import Networking

extension CardDAVClient {
    /// What changed in `book` since `token`: one `sync-collection` request when nothing moved
    /// (or one `PROPFIND` of the collection tag on a server without sync tokens); the whole
    /// ETag listing when the server refuses the token or has no sync tokens (see ``SyncMachine``).
    ///
    /// Read the cards to fetch with ``multiget(_:in:batches:)``; ``SyncDelta/plan(known:)``
    /// says which, given the ETags the caller holds. Keep ``SyncDelta/token`` for next time
    /// only once the changes are applied.
    ///
    /// - Throws: ``CardDAVError``.
    public func sync(_ book: AddressBook, since token: CardDAVSyncToken?) async throws(CardDAVError) -> SyncDelta {
        var machine = SyncMachine(
            since: token, supportsSyncCollection: book.supportsSyncCollection || book.syncToken != nil,
            maximumRounds: configuration.maximumSyncRounds)
        var action = machine.start()
        while true {
            let event: SyncMachine.Event
            switch action {
            case .finish(let delta):
                if let fallback = delta.fallback {
                    logger.info(
                        "Listed every ETag of the address book instead of its changes",
                        metadata: ["book": "\(book.href)", "reason": "\(fallback)"])
                }
                return delta
            case .fail(let error):
                throw error
            case .requestChanges(let since):
                event = try await changes(in: book, since: since)
            case .readCollectionTag:
                let tags = try await collectionTags(of: book)
                event = .collectionTag(ctag: tags.ctag, syncToken: tags.syncToken)
            case .listETags:
                event = .listing(try await listETags(book))
            }
            action = machine.receive(event)
        }
    }

    /// Every card of `book` with its ETag (`PROPFIND`, `Depth: 1`), and the book's sync token
    /// and ctag: what a sync falls back to.
    ///
    /// - Throws: ``CardDAVError``.
    public func listETags(_ book: AddressBook) async throws(CardDAVError) -> ETagListing {
        let response = try await exchange(
            .propfind(depth: 1, properties: Self.listingProperties), to: book.url)
        guard response.statusCode == 207 else { throw DAVErrors.status(response) }
        var listing = ETagListing(members: [])
        do {
            _ = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                let path = try path(ofHref: entry.hrefs[0], in: response)
                if Href.sameCollection(path, book.href) {
                    listing.syncToken = entry.text(.dav("sync-token")).flatMap { $0.isEmpty ? nil : $0 }
                    listing.ctag = entry.text(.calendarServer("getctag")).flatMap { $0.isEmpty ? nil : $0 }
                    return
                }
                guard Href.isInside(path, collection: book.href) else {
                    throw DAVErrors.badAnswer(response, "it lists \(path), which is not in \(book.href)")
                }
                let isCollection = entry.resourceTypes.contains(.dav("collection")) || path.hasSuffix("/")
                guard !isCollection, entry.status.map({ $0 < 300 }) ?? true else { return }
                listing.members.append(ResourceVersion(href: path, etag: entry.text(.dav("getetag"))))
            }
        } catch {
            throw DAVErrors.reading(error, in: response)
        }
        return listing
    }

    static let listingProperties: [XMLName] = [
        .dav("resourcetype"), .dav("getetag"), .dav("sync-token"), .calendarServer("getctag"),
    ]

    /// One `sync-collection` request, as the event the machine needs.
    private func changes(in book: AddressBook, since token: String?) async throws(CardDAVError) -> SyncMachine.Event {
        let response = try await exchange(
            .syncCollection(token: token, properties: [.dav("getetag")]), to: book.url)
        switch response.statusCode {
        case 207:
            return .changes(try page(from: response, book: book))
        case 401, 404, 410:
            throw DAVErrors.status(response)
        case 403, 409, 412:
            // RFC 6578 §3.2: a token the server no longer knows is refused with the
            // valid-sync-token precondition (Radicale: 403; Xandikos: 412). A 412 with no
            // conditional header sent can only be such a precondition.
            let conditions = MultistatusReader.errorConditions(in: response.body, limits: configuration.xmlLimits)
            if conditions.contains(.dav("valid-sync-token")) || (response.statusCode == 412 && token != nil) {
                return .tokenRefused
            }
            return .syncUnavailable(status: response.statusCode)
        case 400..<500, 501, 507:
            return .syncUnavailable(status: response.statusCode)
        default:
            throw DAVErrors.status(response)
        }
    }

    /// A `sync-collection` multistatus as a ``SyncPage``.
    private func page(from response: Response, book: AddressBook) throws(CardDAVError) -> SyncPage {
        var changed: [ResourceVersion] = []
        var removed: [String] = []
        var truncated = false
        let summary: MultistatusReader.Summary
        do {
            summary = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                let limited = entry.errors.contains(.dav("number-of-matches-within-limits"))
                // A response with a status may name several resources (RFC 4918 §14.24).
                for href in entry.hrefs {
                    let path = try path(ofHref: href, in: response)
                    if Href.sameCollection(path, book.href) {
                        // RFC 6578 §3.6: the collection itself with 507 means "more to come".
                        if entry.status == 507 || limited { truncated = true }
                        continue
                    }
                    guard Href.isInside(path, collection: book.href) else {
                        throw DAVErrors.badAnswer(response, "it reports \(path), which is not in \(book.href)")
                    }
                    if limited { truncated = true }
                    if entry.status == 404 || entry.status == 410 {
                        removed.append(path)
                    } else if !path.hasSuffix("/") {
                        changed.append(ResourceVersion(href: path, etag: entry.text(.dav("getetag"))))
                    }
                }
            }
        } catch {
            throw DAVErrors.reading(error, in: response)
        }
        return SyncPage(changed: changed, removed: removed, token: summary.syncToken, truncated: truncated)
    }

    /// The collection's `getctag` and `sync-token` (`PROPFIND`, `Depth: 0`).
    private func collectionTags(of book: AddressBook) async throws(CardDAVError) -> (ctag: String?, syncToken: String?)
    {
        let response = try await exchange(
            .propfind(depth: 0, properties: [.calendarServer("getctag"), .dav("sync-token")]), to: book.url)
        guard response.statusCode == 207 else { throw DAVErrors.status(response) }
        var tags: (ctag: String?, syncToken: String?) = (nil, nil)
        do {
            _ = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                guard Href.sameCollection(try path(ofHref: entry.hrefs[0], in: response), book.href) else { return }
                tags.ctag = entry.text(.calendarServer("getctag")).flatMap { $0.isEmpty ? nil : $0 }
                tags.syncToken = entry.text(.dav("sync-token")).flatMap { $0.isEmpty ? nil : $0 }
            }
        } catch {
            throw DAVErrors.reading(error, in: response)
        }
        return tags
    }
}
