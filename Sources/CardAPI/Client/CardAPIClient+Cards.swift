import CardAPIContract
import CardBackend
public import CardModels
public import Foundation
import Networking

extension CardAPIClient {
    /// One page of the wallet, in wallet order (`GET /cards`).
    ///
    /// The page is checked as the server checks cards (``PageCheck``): at most the cards asked
    /// for, ids that can be ids, fields within ``CardModels/CardLimits``. A page that breaks
    /// those rules fails with ``CardAPIError/unexpectedResponse(_:)``.
    ///
    /// - Parameters:
    ///   - offset: the index of the first card (default 0).
    ///   - limit: the most cards (1–200; the server's default is 50).
    ///   - query: only cards whose name, company, title or email match, ignoring case.
    /// - Returns: the page, with the total number of matching cards.
    public func listCards(offset: Int? = nil, limit: Int? = nil, query: String? = nil) async throws(CardAPIError)
        -> CardPage
    {
        let page = try await send(.list(offset: offset, limit: limit, query: query), returning: APICardPage.self)
        let asked = min(max(limit ?? CardPaging.defaultLimit, 1), CardPaging.maxLimit)
        try PageCheck(request: "GET \(configuration.server.path)/cards").check(page, asked: asked)
        return page.page
    }

    /// The most cards ``allCards(query:pageSize:maximumCards:)`` reads by default: 100,000.
    public static let maximumListedCards = 100_000

    /// Every card of the wallet (or every match of `query`), fetched page by page.
    ///
    /// A server cannot make this loop or grow without end: each page is checked as
    /// ``listCards(offset:limit:query:)`` does, a card already listed is not listed again, a
    /// page that adds no new card ends the list with an error (the server ignores `offset`), and
    /// so does a wallet that goes on past `maximumCards`.
    ///
    /// - Parameters:
    ///   - query: only matching cards.
    ///   - pageSize: cards per request (at most 200).
    ///   - maximumCards: the most cards read (default ``maximumListedCards``).
    /// - Returns: the summaries in wallet order.
    /// - Throws: ``CardAPIError/unexpectedResponse(_:)`` for a page that repeats the cards
    ///   already listed or a wallet past `maximumCards`, and the errors of ``listCards(offset:limit:query:)``.
    public func allCards(
        query: String? = nil, pageSize: Int = CardPaging.maxLimit, maximumCards: Int = maximumListedCards
    ) async throws(CardAPIError) -> [CardSummary] {
        let limit = max(1, min(pageSize, CardPaging.maxLimit))
        let check = PageCheck(request: "GET \(configuration.server.path)/cards")
        var cards: [CardSummary] = []
        var seen = Set<String>()
        while true {
            let offset = cards.count
            let page = try await listCards(offset: offset, limit: limit, query: query)
            // A card seen before (the wallet shifted under the pages) is listed once.
            for card in page.cards where seen.insert(card.id).inserted { cards.append(card) }
            // Stop on a short page too, so a wallet that shrinks meanwhile cannot loop.
            if page.cards.count < limit || cards.count >= page.total { return cards }
            if cards.count == offset { throw check.repeatedPage(offset: offset) }
            if cards.count >= maximumCards { throw check.tooManyCards(maximumCards) }
        }
    }

    /// One card (`GET /card/{cardId}`), with the ``CardModels/Card/version`` to edit it with.
    ///
    /// - Throws: ``CardAPIError/server(_:)`` with E05 when there is no such card (or it is not
    ///   yours); ``CardAPIError/invalidCardID(_:)`` without sending when `id` cannot be an id.
    public func card(id: String) async throws(CardAPIError) -> Card {
        try await send(.card(id: Self.checked(id)), returning: APICard.self).card
    }

    /// Whole cards by id in one request (`GET /cards/whole?ids=…`, docs/API.md): the cards
    /// found, in the order asked, and the ids with no card.
    ///
    /// - Parameter ids: at most `APIWholeCards.maximumIDs` ids.
    /// - Throws: ``CardAPIError``; a server without the endpoint answers 404 E01
    ///   (`ServerError/isUnknownEndpoint`), and the caller reads the cards one by one.
    public func wholeCards(ids: [String]) async throws(CardAPIError) -> (cards: [Card], missing: [String]) {
        var checked: [String] = []
        for id in ids { checked.append(try Self.checked(id)) }
        let answer = try await send(.wholeCards(ids: checked), returning: APIWholeCards.self)
        let asked = Set(checked)
        // Only what was asked, once each: a server cannot slip other cards in.
        var seen = Set<String>()
        let cards = answer.cards.map(\.card).filter { asked.contains($0.id) && seen.insert($0.id).inserted }
        return (cards, answer.missing.filter { asked.contains($0) })
    }

    /// Creates a card (`POST /card`, multipart), at the end of the wallet.
    ///
    /// Every create carries an `Idempotency-Key` (docs/API.md): the same request sent again —
    /// after a 401's refresh, a 429's wait, or by the caller after an answer lost to a timeout
    /// or a broken connection — makes one card, and the server answers it with the first answer.
    ///
    /// - Parameters:
    ///   - fields: the card's fields.
    ///   - image: an image checked with ``ImageFile/init(validating:maximumBytes:)``; it is
    ///     streamed from disk. A 401 during the upload re-sends the same bytes after the refresh.
    ///   - idempotencyKey: the key; a fresh one per call by default. Pass the same key to try a
    ///     create again whose answer never came (the same fields and image: other ones with the
    ///     same key are refused, 422 E01).
    /// - Returns: the new card (version 1).
    public func createCard(
        _ fields: CardFields, image: ImageFile? = nil, idempotencyKey: IdempotencyKey = IdempotencyKey()
    ) async throws(CardAPIError) -> Card {
        try await send(.create(fields, image: image, idempotencyKey: idempotencyKey), returning: APICard.self).card
    }

    /// Creates a card with the image file at `imageURL`, checked first: nothing is sent if it
    /// is missing, unreadable, not a PNG or JPEG, or too large.
    ///
    /// - Throws: ``CardAPIError/invalidImage(path:problem:)`` before sending anything, or the
    ///   errors of ``createCard(_:image:idempotencyKey:)``.
    public func createCard(
        _ fields: CardFields, imageAt imageURL: URL, idempotencyKey: IdempotencyKey = IdempotencyKey()
    ) async throws(CardAPIError) -> Card {
        try await createCard(fields, image: validateImage(at: imageURL), idempotencyKey: idempotencyKey)
    }

    /// Checks an image file for upload without sending anything (for a form's inline check).
    public func validateImage(at url: URL) throws(CardAPIError) -> ImageFile {
        do {
            return try ImageFile(validating: url, maximumBytes: configuration.maximumImageBytes)
        } catch {
            throw .invalidImage(path: error.path, problem: error.problem)
        }
    }

    /// Replaces every editable field of a card (`PUT /card/{cardId}` with `If-Match`).
    ///
    /// - Parameters:
    ///   - id: the card.
    ///   - fields: all its fields (absent optional fields are cleared).
    ///   - version: the version the edit is based on, from ``card(id:)`` or the list.
    /// - Returns: the card as stored now, with its new version.
    /// - Throws: ``CardAPIError/server(_:)`` with E07 when the card changed since `version`
    ///   (nothing changed on the server), E05 when it is gone, E01 for invalid fields.
    public func updateCard(id: String, fields: CardFields, version: Int) async throws(CardAPIError) -> Card {
        try await send(.update(id: Self.checked(id), fields: fields, version: version), returning: APICard.self).card
    }

    /// Saves `card`'s fields, based on its version.
    public func updateCard(_ card: Card) async throws(CardAPIError) -> Card {
        try await updateCard(id: card.id, fields: card.fields, version: card.revision.number ?? 0)
    }

    /// Deletes a card (`DELETE /card/{cardId}`), only if it is still at `version` when given.
    ///
    /// - Throws: E05 when there is no such card, E07 when `version` is stale.
    public func deleteCard(id: String, version: Int? = nil) async throws(CardAPIError) {
        _ = try await send(.delete(id: Self.checked(id), version: version), returning: EmptyPayload.self)
    }

    /// Saves a new wallet order (`PUT /cards`); it must name every card exactly once.
    ///
    /// - Returns: the order as stored.
    /// - Throws: E01 (with `fields["order"]`) when ids are missing, repeated or unknown.
    @discardableResult
    public func reorderCards(_ order: [String]) async throws(CardAPIError) -> [String] {
        try await send(.reorder(order), returning: ReorderRequest.self).order
    }

    /// Replaces a card's image (`PUT /card/{cardId}/image` with `If-Match`), streaming the
    /// checked file from disk.
    ///
    /// - Parameters:
    ///   - id: the card.
    ///   - version: the version the change is based on, from ``card(id:)`` or the list.
    ///   - image: an image checked with ``ImageFile/init(validating:maximumBytes:)``.
    /// - Returns: the card as stored now: a new version, `hasImage` and its `image` info. The
    ///   same bytes as the current image change nothing and return the card as it was.
    /// - Throws: ``CardAPIError/server(_:)`` with E07 when the card changed since `version`
    ///   (nothing changed on the server), E05 when it is gone, E08/E09 when the server refuses
    ///   the image.
    public func replaceImage(id: String, version: Int, image: ImageFile) async throws(CardAPIError) -> Card {
        try await send(.replaceImage(id: Self.checked(id), image: image, version: version), returning: APICard.self)
            .card
    }

    /// Replaces a card's image with the file at `imageURL`, checked first exactly as
    /// ``createCard(_:imageAt:idempotencyKey:)`` checks it: nothing is sent if it is missing, unreadable, not a
    /// PNG or JPEG, or too large.
    ///
    /// - Throws: ``CardAPIError/invalidImage(path:problem:)`` before sending anything, or the
    ///   errors of ``replaceImage(id:version:image:)``.
    public func replaceImage(id: String, version: Int, imageAt imageURL: URL) async throws(CardAPIError) -> Card {
        try await replaceImage(id: id, version: version, image: validateImage(at: imageURL))
    }

    /// Removes a card's image (`DELETE /card/{cardId}/image` with `If-Match`); the card shows
    /// its avatar (``CardModels/CardFields/defaultImage``) again.
    ///
    /// - Returns: the card as stored now (`hasImage` false, a new version); a card that had no
    ///   image is returned unchanged.
    /// - Throws: ``CardAPIError/server(_:)`` with E07 when the card changed since `version`,
    ///   E05 when it is gone.
    public func removeImage(id: String, version: Int) async throws(CardAPIError) -> Card {
        try await send(.removeImage(id: Self.checked(id), version: version), returning: APICard.self).card
    }

    /// A card's image (`GET /card/{cardId}/image`).
    ///
    /// - Throws: E05 when the card has no image or does not exist.
    public func cardImage(id: String) async throws(CardAPIError) -> CardImage {
        try judge.image(from: try await send(.image(id: Self.checked(id))))
    }
}
