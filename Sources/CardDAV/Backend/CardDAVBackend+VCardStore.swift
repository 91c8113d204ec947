public import CardBackend
public import CardModels
import CardVCard
import Foundation

/// Whole vCards in and out (``CardBackend/VCardStore``): a move or a copy from another CardDAV
/// book writes the card's vCard as it is, so every property the server accepts is kept.
extension CardDAVBackend: VCardStore {
    public func create(vcard: String, key: IdempotencyKey) async throws -> Card {
        let resource: VCardResource
        do {
            resource = try VCardResource(text: vcard)
        } catch {
            throw CardDAVBackendFailure(.other, "The card cannot be read as a vCard: \(error.description).")
        }
        guard !resource.isGroup else { throw CardDAVBackendFailure(.other, "A group is not a card.") }
        let keyName = Self.resourceName(for: key)
        let name = resource.uid.flatMap(Self.resourceName(forUID:)) ?? keyName
        return try await withBook { client, book in
            do {
                return try await written(
                    try await client.create(resource.text, key: name, in: book), vcard: resource.text, client)
            } catch let error as CardDAVError where error.isConflict {
                // The name is taken: by this very create sent before (the same card: its UID and
                // fields), or by another card, whose UID names it: then the key names this one.
                let existing = try await client.get(Self.path(of: name + ".vcf", in: book))
                let stored = try? VCardResource(text: existing.vcard)
                if name != keyName, let stored, stored.uid != resource.uid {
                    return try await written(
                        try await client.create(resource.text, key: keyName, in: book), vcard: resource.text, client)
                }
                guard let card = try card(from: existing, id: remember(existing.href)), let stored,
                    Self.sameFields(stored.fields, resource.fields)
                else { throw error }
                return card
            }
        }
    }

    public func replace(_ base: Card, with vcard: String) async throws -> Card {
        do {
            _ = try VCardResource(text: vcard)
        } catch {
            throw CardDAVBackendFailure(.other, "The card cannot be read as a vCard: \(error.description).")
        }
        return try await withBook { client, book in
            let href = try await href(of: base.id, in: book, client)
            let stored = try await client.update(href, vcard: vcard, etag: base.revision.rawValue)
            return try await written(stored, vcard: vcard, client)
        }
    }
}
