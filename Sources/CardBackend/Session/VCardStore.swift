public import CardModels

/// A backend whose server keeps each card as a whole vCard (CardDAV): it can take a card as
/// the vCard it is, every property kept — what a move or a copy between two such books needs to
/// lose nothing, and a merge to keep the properties the wallet does not model. An optional
/// capability, asked with `backend as? any VCardStore`.
public protocol VCardStore: CardBackend {
    /// Makes a card of `vcard` as it is (its `UID` kept; named after it when the name is safe,
    /// else after `key`), only where no card has that name (`If-None-Match: *`). Sent again
    /// (a lost answer, a retry after a crash), it finds its own card and answers with it.
    ///
    /// - Throws: a failure that ``BackendFailure/isConflict`` when the name is taken by another
    ///   card (another `UID`, or the same `UID` with other values).
    func create(vcard: String, key: IdempotencyKey) async throws -> Card
    /// Replaces card `base` by `vcard`, only if it is still at its revision (`If-Match`).
    ///
    /// - Throws: a failure that ``BackendFailure/isConflict`` when it changed meanwhile.
    func replace(_ base: Card, with vcard: String) async throws -> Card
}
