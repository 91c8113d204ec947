public import CardBackend
public import CardModels
import CardVCard
import Foundation
import Logging
import Synchronization
import TextSafety

extension CardDAVBackend {
    // MARK: Reads

    public func listing(_ request: ListingRequest) async throws -> CardListing {
        var cards: [Card] = []
        switch try await listing(request, receiving: { cards += $0.cards }) {
        case .whole(let summaries, _, let token): return .whole(summaries, cards: cards, token: token)
        case .changes(_, let removed, let token): return .changes(changed: cards, removed: removed, token: token)
        case .page(let page): return .page(page)
        }
    }

    public func listing(_ request: ListingRequest, receiving receive: (ListingBatch) async throws -> Void)
        async throws -> CardListing
    {
        let known: [String: CardRevision]
        let since: CardDAVSyncToken?
        switch request {
        case .page:
            throw CardDAVBackendFailure(.other, "A CardDAV address book is listed whole, not by pages.")
        case .whole(let token, let cached):
            since = token.flatMap { CardDAVSyncToken(rawValue: $0.rawValue) }
            known = cached
        }
        return try await withBook { client, book in
            var delta = try await client.sync(book, since: since)
            let token = delta.token.map { SyncToken(rawValue: $0.rawValue) }
            switch delta.kind {
            case .changes:
                // Only the cards whose ETag the cache does not hold are read: a card this wallet
                // wrote itself is recorded with the ETag its write left, and is not read back.
                // Only the paths are read on; the ETags (a 20,000-card first sync holds 20,000)
                // are let go before the cards are.
                var changed: [String] = []
                for member in delta.changed {
                    if let etag = member.etag, known[Self.id(ofHref: member.href)]?.rawValue == etag { continue }
                    changed.append(member.href)
                }
                delta.changed = []
                try await read(changed, in: book, client, handing: receive)
                return .changes(changed: [], removed: delta.removed.map(remember), token: token)
            case .fullListing:
                // Only what differs from what the cache holds is read; what it holds and the
                // server no longer lists is removed. Never a duplicate, never a loss.
                var differing: [String] = []
                var listed = Set<String>()
                for member in delta.changed where !member.href.hasSuffix("/") {
                    let id = remember(member.href)
                    if !known.isEmpty { listed.insert(id) }
                    if known[id].map({ $0.rawValue != member.etag }) ?? true { differing.append(member.href) }
                }
                // The ETags are let go before the cards are read.
                delta.changed = []
                let summaries = try await read(differing, in: book, client, handing: receive)
                guard !known.isEmpty else { return .whole(summaries, cards: [], token: token) }
                return .changes(changed: [], removed: known.keys.filter { !listed.contains($0) }, token: token)
            }
        }
    }

    public func search(_ query: String) async throws -> [CardSummary] {
        throw CardDAVBackendFailure(.other, "A CardDAV server is not searched: the cache answers.")
    }

    public func card(id: String) async throws -> Card {
        try await withBook { client, book in
            let resource: DAVResource
            do {
                resource = try await client.get(try await href(of: id, in: book, client))
            } catch CardDAVError.notFound {
                throw Self.noCard(id, in: book)
            }
            guard let card = try card(from: resource, id: id) else {
                throw CardDAVBackendFailure(.notFound, "\(TerminalText.escaped(id)) is a group, not a card.")
            }
            return card
        }
    }

    public func cards(ids: [String], progress: (@Sendable (Int) -> Void)?) async throws -> [Card] {
        try await withBook { client, book in
            var hrefs: [String] = []
            for id in ids { hrefs.append(try await href(of: id, in: book, client)) }
            var cards: [Card] = []
            try await read(hrefs, in: book, client, handing: { cards += $0.cards }, progress: progress)
            // In the order asked for.
            let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return ids.compactMap { byID[$0] }
        }
    }

    public func image(of id: String) async throws -> CardImage {
        let card = try await card(id: id)
        switch try card.source.flatMap({ try VCardResource(text: $0).picture }) {
        case .image(let photo):
            return CardImage(
                data: Data(photo.bytes), contentType: photo.format.contentType, format: photo.format,
                revision: card.revision)
        case .uri(let uri):
            return try await withBook { client, book in
                guard let url = Self.linkedPicture(uri, of: try await href(of: id, in: book, client), on: origin) else {
                    throw CardDAVBackendFailure(
                        .notFound,
                        "The picture of \(TerminalText.escaped(id)) is a link to another address "
                            + "(\(TerminalText.escaped(uri))): the wallet loads pictures from the server's own address only."
                    )
                }
                let picture = try await client.picture(at: url, maximumBytes: setup.maximumImageBytes)
                return CardImage(
                    data: Data(picture.bytes), contentType: picture.format.contentType, format: picture.format,
                    revision: card.revision)
            }
        case .unsupported, nil:
            throw CardDAVBackendFailure(.notFound, "The card \(TerminalText.escaped(id)) has no picture.")
        }
    }

    // MARK: Writes

    public func create(_ fields: CardFields, image: ImageUpload?, key: IdempotencyKey) async throws -> Card {
        let photo = try image.map(Self.photo)
        // A card that arrives with a UID of its own (an import) keeps it, byte for byte, and is
        // named after it when it is a safe name; any other card's UID and name come from the key
        // made when the person asked for it. Either way a create sent again after a lost answer
        // finds its name taken (If-None-Match: *) and is the same card.
        let ownUID = VCardResource.keptUID(of: fields)
        let keyName = Self.resourceName(for: key)
        let name = ownUID.flatMap(Self.resourceName(forUID:)) ?? keyName
        let vcard: VCardResource
        do {
            vcard = try VCardResource.new(uid: ownUID ?? name, fields: fields, photo: photo, revision: Date())
        } catch {
            throw Self.failure(error)
        }
        return try await withBook { client, book in
            do {
                return try await written(
                    try await client.create(vcard.text, key: name, in: book), vcard: vcard.text, client)
            } catch let error as CardDAVError where error.isConflict {
                // The name is taken: by this very create, sent before (the same card), or, for a
                // name made from the card's UID, by a card with another UID: then the key names it.
                let existing = try await client.get(Self.path(of: name + ".vcf", in: book))
                let resource = try? VCardResource(text: existing.vcard)
                if name != keyName, let resource, resource.uid != ownUID {
                    let stored = try await client.create(vcard.text, key: keyName, in: book)
                    return try await written(stored, vcard: vcard.text, client)
                }
                guard let card = try card(from: existing, id: remember(existing.href)),
                    Self.sameFields(card.fields, resource?.keepingWholeValues(of: fields) ?? fields)
                else { throw error }
                return card
            }
        }
    }

    /// A card the vCard cannot hold as asked, as a failure of this card alone (an import skips
    /// it and goes on with the others).
    static func failure(_ error: VCardResourceError) -> CardDAVBackendFailure {
        if case .invalidField(let field, let message) = error {
            return CardDAVBackendFailure(.invalid(fields: [field.key: message]), error.description)
        }
        return CardDAVBackendFailure(.other, "The card cannot be written as a vCard: \(error.description).")
    }

    /// Whether two cards' fields say the same, the lines kept from an import aside (a card read
    /// from the server keeps them in its vCard, not in its fields).
    static func sameFields(_ one: CardFields, _ other: CardFields) -> Bool {
        var (one, other) = (one.normalized(), other.normalized())
        one.vcardProperties = []
        other.vcardProperties = []
        return one == other
    }

    public func update(_ base: Card, to fields: CardFields) async throws -> Card {
        try await rewrite(base) { try $0.edited(fields: fields, revision: Date()) }
    }

    public func setImage(of base: Card, to image: ImageUpload?) async throws -> Card {
        let edit: VCardPictureEdit = try image.map { .replace(try Self.photo($0)) } ?? .remove
        return try await rewrite(base) { resource in
            try resource.edited(fields: resource.fields, picture: edit, revision: Date())
        }
    }

    public func delete(id: String, revision: CardRevision?) async throws {
        try await withBook { client, book in
            do {
                try await client.delete(try await href(of: id, in: book, client), etag: revision?.rawValue)
            } catch CardDAVError.notFound {
                throw Self.noCard(id, in: book)
            }
        }
    }

    /// A card asked for by id that its book does not hold (404): said as the card it is, not as
    /// the address it was asked at.
    static func noCard(_ id: String, in book: AddressBook) -> CardDAVBackendFailure {
        let name = book.displayName.map { " “\(TerminalText.escaped($0))”" } ?? ""
        return CardDAVBackendFailure(
            .notFound,
            "There is no card “\(TerminalText.escaped(id))” in the address book\(name): it was deleted, or its id is wrong."
        )
    }

    public func reorder(_ ids: [String]) async throws -> [String] {
        // The wallet keeps a CardDAV book's order itself (capabilities.keepsOrder is false).
        ids
    }

    // MARK: Inside

    /// Writes `base` changed by `change` back, only if it is still at its revision (`If-Match`):
    /// from what the server stores of it (its source; read again when the caller has none).
    private func rewrite(_ base: Card, _ change: (VCardResource) throws -> VCardResource) async throws -> Card {
        try await withBook { client, book in
            let href = try await href(of: base.id, in: book, client)
            var source = base.source
            if source == nil {
                let current = try await client.get(href)
                guard current.etag == nil || current.etag == base.revision.rawValue else {
                    throw CardDAVError.conflict(url: href)
                }
                source = current.vcard
            }
            let original: VCardResource
            let edited: VCardResource
            do {
                original = try VCardResource(text: source ?? "")
                edited = try change(original)
            } catch let error as VCardResourceError {
                throw Self.failure(error)
            }
            if edited == original,
                let card = try card(
                    from: DAVResource(href: href, etag: base.revision.rawValue, vcard: original.text), id: base.id)
            {
                return card
            }
            let stored = try await client.update(href, vcard: edited.text, etag: base.revision.rawValue)
            return try await written(stored, vcard: edited.text, client)
        }
    }

    /// The card a write left: as the server says it stores it (read back when it gave no `ETag`
    /// or rewrote what was sent), else what was sent.
    func written(_ stored: StoredCard, vcard: String, _ client: CardDAVClient) async throws -> Card {
        let resource = DAVResource(href: stored.href, etag: stored.etag, vcard: stored.vcard ?? vcard)
        if stored.etag == nil { return try await card(from: client.get(stored.href)) }
        guard let card = try card(from: resource, id: remember(stored.href)) else {
            throw CardDAVBackendFailure(.other, "The server stored a group where a card was written.")
        }
        return card
    }

    private func card(from resource: DAVResource) throws -> Card {
        guard let card = try card(from: resource, id: remember(resource.href)) else {
            throw CardDAVBackendFailure(.other, "The server holds a group where a card was written.")
        }
        return card
    }

    /// The cards at `hrefs`, read in multiget batches (the next asked for while this one is
    /// read), each batch's cards and groups handed to `receive`; vanished ones left out.
    /// - Returns: the summary of every card read, in order.
    @discardableResult
    private func read(
        _ hrefs: [String], in book: AddressBook, _ client: CardDAVClient,
        handing receive: (ListingBatch) async throws -> Void, progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> [CardSummary] {
        guard !hrefs.isEmpty else { return [] }
        var summaries: [CardSummary] = []
        var done = 0
        let origin = self.origin
        let logger = self.logger
        // Each batch's vCards are read into cards in the multiget's parsing stage, while the
        // batch before is handed over (stored) and the next one is asked for.
        try await client.multiget(
            hrefs, in: book,
            reading: { result in
                var batch = ListingBatch(cards: [])
                batch.cards.reserveCapacity(result.found.count)
                for resource in result.found {
                    do {
                        switch try Self.entry(from: resource, id: self.remember(resource.href), origin: origin) {
                        case .card(let card): batch.cards.append(card)
                        case .group(let group): batch.groups.append(group)
                        }
                    } catch {
                        logger.notice(
                            "A card of the address book cannot be read and is left out",
                            metadata: ["href": "\(resource.href)", "problem": "\(error)"])
                    }
                }
                return (batch, result.found.count + result.missing.count)
            },
            batches: { (read: (batch: ListingBatch, resources: Int)) in
                summaries += read.batch.cards.map(\.summary)
                try await receive(read.batch)
                done += read.resources
                progress?(done)
            })
        return summaries
    }

    /// The path of card `id`: its resource name in the book, or, for the ids that are not
    /// names, the path a listing saw (listing again when none did yet).
    func href(of id: String, in book: AddressBook, _ client: CardDAVClient) async throws -> String {
        if let known = state.withLock({ $0.hrefs[id] }) { return known }
        if !id.hasPrefix(Self.hashedIDPrefix) { return Self.path(of: id, in: book) }
        for member in try await client.listETags(book).members { remember(member.href) }
        guard let found = state.withLock({ $0.hrefs[id] }) else { throw CardDAVError.notFound(url: id) }
        return found
    }

    /// The id of the resource at `href`, remembered with it.
    @discardableResult
    func remember(_ href: String) -> String {
        let id = Self.id(ofHref: href)
        state.withLock { state in
            // Only the paths ``href(of:in:)`` could not work out from the id: a book of 20,000
            // cards named as their ids keeps no map of 20,000 paths.
            if !id.hasPrefix(Self.hashedIDPrefix), let book = state.book, Self.path(of: id, in: book) == href {
                state.hrefs[id] = nil
            } else {
                state.hrefs[id] = href
            }
        }
        return id
    }
}
