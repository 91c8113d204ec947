import CardBackend
public import CardCache
public import CardModels
import CardVCard
import Foundation

extension CachedWallet {
    /// How replays reach the other books of a transfer (set by the commands and the interface,
    /// for the task that replays): without it a transfer waits in the outbox.
    @TaskLocal public static var transferPeers: (any TransferPeers)?

    /// Told when a transfer is done (its outbox entry and its order, with the card as written
    /// in the target), for the command or the interface that asked for it.
    ///
    /// An object, not a closure: a closure literal bound with `withValue` inside another binding
    /// crashed release builds (`swift_task_localValuePush`, a bad pointer; Swift 6.3.1), as the
    /// optimizer put the closure's context on the task's stack out of order (swiftlang/swift#65274
    /// is the same family). ``TransferWatch`` is made before the binding, and bound by a function
    /// of its own.
    @TaskLocal static var transferWatch: TransferWatch?

    /// The card as a transfer writes it elsewhere: its vCard as the server keeps it (a CardDAV
    /// card), else its fields with what they keep, and its picture read from the server.
    public func transferCard(of card: Card) async throws -> TransferCard {
        if let source = card.source {
            return TransferCard(fields: card.fields, vcard: source)
        }
        guard card.hasImage else { return TransferCard(fields: card.fields) }
        let image = try await image(of: card, offline: false).value
        return TransferCard(fields: card.fields, image: image.data, imageType: image.contentType)
    }

    /// Carries transfer entry `entryID` (claimed by `claims`) on from where its order stands:
    /// the card written to the target (made with the order's key, or a merge written over its
    /// card if still at the revision read), that recorded, then the card deleted here if still
    /// at the revision the person saw. A card changed here before its delete starts the move
    /// again from its new version (the target's copy deleted first), at most three times.
    func carryOut(_ order: TransferOrder, entryID: Int64, claims: OutboxClaims) async throws {
        guard let peers = Self.transferPeers else { throw TransferPeersMissing() }
        guard let cache else { return }
        let target = try await peers.wallet(for: order.target)
        var order = order
        while true {
            if order.written == nil {
                let written: Card
                switch order.mode {
                case .move, .copy: written = try await target.transferCreate(order.card, key: order.key)
                case .merge:
                    guard let over = order.over else { throw TransferOrderDamaged() }
                    written = try await target.transferWrite(order.card, over: over)
                }
                TransferStep.created.reached()
                order.written = TransferWritten(id: written.id, revision: written.revision)
                guard try cache.updateTransfer(entryID, by: claims.claimant, to: order) else { throw ClaimLost() }
                TransferStep.written.reached()
            }
            guard order.deletesSource else {
                Self.transferWatch?.done(entryID, order)
                return
            }
            do {
                _ = try await delete(id: order.sourceID, revision: order.sourceRevision)
            } catch  where BackendFailures.isNotFound(error) {
                // Gone already: what the order asked for (a replay after the delete answered).
            } catch  where BackendFailures.kind(of: error) == .conflict && order.mode == .move && order.restarts < 3 {
                // Changed here since the person asked: the copy in the target is of the old
                // version. It goes, and the move starts again from the new one; until then the
                // card is here.
                let current = try await backend.card(id: order.sourceID)
                if let written = order.written {
                    do {
                        _ = try await target.delete(id: written.id, revision: written.revision)
                    } catch  where BackendFailures.isNotFound(error) {}
                }
                order = TransferOrder(
                    mode: .move, sourceID: order.sourceID, sourceRevision: current.revision, target: order.target,
                    card: try await transferCard(of: current), restarts: order.restarts + 1)
                guard try cache.updateTransfer(entryID, by: claims.claimant, to: order) else { throw ClaimLost() }
                continue
            }
            TransferStep.deleted.reached()
            Self.transferWatch?.done(entryID, order)
            return
        }
    }

    /// Makes `card` here with `key`: as its whole vCard where this server keeps vCards, else as
    /// fields (the vCard's properties the wallet does not model kept as its lines) with its
    /// picture. Recorded in the cache.
    func transferCreate(_ card: TransferCard, key: IdempotencyKey) async throws -> Card {
        if let vcard = card.vcard, let store = backend as? any VCardStore {
            let made = try await store.create(vcard: vcard, key: key)
            record(made)
            return made
        }
        let (fields, image) = Self.fieldsAndPicture(of: card)
        let upload = try image.map { try Self.upload($0.data, type: $0.type, maximumBytes: backend.maximumImageBytes) }
        defer { if let upload { try? FileManager.default.removeItem(at: upload.url.deletingLastPathComponent()) } }
        return try await create(fields, image: upload, key: key).value
    }

    /// Writes `card` over the card `over` names, only if it is still at that revision; a card
    /// that holds `card`'s values already (the write answered, then the process ended) counts
    /// as written.
    func transferWrite(_ card: TransferCard, over: TransferWritten) async throws -> Card {
        do {
            if let vcard = card.vcard, let store = backend as? any VCardStore {
                let base = Card(
                    id: over.id, fields: card.fields, createdAt: Date(), updatedAt: Date(), revision: over.revision)
                let made = try await store.replace(base, with: vcard)
                record(made)
                return made
            }
            let (fields, image) = Self.fieldsAndPicture(of: card)
            var made = try await update(id: over.id, fields: fields, revision: over.revision).value
            if let image, !made.hasImage {
                let upload = try Self.upload(image.data, type: image.type, maximumBytes: backend.maximumImageBytes)
                defer { try? FileManager.default.removeItem(at: upload.url.deletingLastPathComponent()) }
                made = try await setImage(of: made.id, revision: made.revision, to: upload)
            }
            return made
        } catch  where BackendFailures.kind(of: error) == .conflict {
            let current = try await backend.card(id: over.id)
            let wanted = card.vcard.flatMap { try? VCardResource(text: $0).fields } ?? card.fields
            guard Self.sameValues(current.fields, wanted) else { throw error }
            record(current)
            return current
        }
    }

    /// Whether two cards' fields say the same, the kept lines aside.
    static func sameValues(_ one: CardFields, _ other: CardFields) -> Bool {
        var (one, other) = (one.normalized(), other.normalized())
        one.vcardProperties = []
        other.vcardProperties = []
        return one == other
    }

    /// The fields (with every property the wallet does not model kept as a line) and picture of
    /// a transferred card, for a server that takes fields.
    static func fieldsAndPicture(of card: TransferCard) -> (CardFields, (data: Data, type: String)?) {
        guard let vcard = card.vcard else {
            return (card.fields, card.image.map { ($0, card.imageType ?? "image/jpeg") })
        }
        guard let imported = VCardDocument.read(bytes: Array(vcard.utf8)).cards.first else { return (card.fields, nil) }
        let photo = imported.photo.map { (Data($0.bytes), $0.format.contentType) }
        return (imported.fields, photo)
    }

    /// A picture as an upload, from a private temporary folder (uploads stream from disk).
    static func upload(_ data: Data, type: String, maximumBytes: Int) throws -> ImageUpload {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cardwallet-move-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appending(path: type == "image/png" ? "picture.png" : "picture.jpg")
        try data.write(to: file)
        return try ImageUpload(validating: file, maximumBytes: maximumBytes)
    }

    /// Records a card the server just answered with, in the cache.
    private func record(_ card: Card) {
        guard let cache else { return }
        attempt { try cache.storeCard(card, confirmedAt: Date()) }
    }
}

/// Another replay took the entry over (this one stalled past its lease): its answers no longer count.
struct ClaimLost: Error, CustomStringConvertible {
    var description: String { "another replay took this change over" }
}

/// A transfer entry that cannot be read as one (written by a damaged file).
struct TransferOrderDamaged: Error, CustomStringConvertible {
    var description: String { "the merge's order does not say which card to write over" }
}
