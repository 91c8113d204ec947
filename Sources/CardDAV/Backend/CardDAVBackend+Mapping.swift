import CardBackend
import CardModels
import CardVCard
import Foundation

/// How vCard resources become the wallet's cards, and back.
extension CardDAVBackend {
    /// How the ids of resources whose names cannot be ids begin.
    static let hashedIDPrefix = "h-"

    /// The card id of the resource at `href`: its name, when it is one a command line can carry
    /// (letters, digits, `.`, `-`, `_`, `@`, `+`; at most 128), else `h-` and a hash of the path.
    static func id(ofHref href: String) -> String {
        let name = href.split(separator: "/").last.map(String.init) ?? ""
        let decoded = name.removingPercentEncoding ?? name
        if (1...128).contains(decoded.utf8.count), !decoded.hasPrefix("."), !decoded.hasPrefix(hashedIDPrefix),
            decoded.utf8.allSatisfy(isIDByte)
        {
            return decoded
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in href.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hashedIDPrefix + String(hash, radix: 16)
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "@"), UInt8(ascii: "+"):
            true
        default: false
        }
    }

    /// The path of the resource named `name` in `book`.
    static func path(of name: String, in book: AddressBook) -> String {
        let folder = book.href.hasSuffix("/") ? book.href : book.href + "/"
        return folder + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
    }

    /// The resource name (and UID) of the card a create with `key` makes: lower-case, so the
    /// same key always names the same resource.
    static func resourceName(for key: IdempotencyKey) -> String {
        key.text.lowercased()
    }

    /// The resource name (the stem before `.vcf`) of a card whose own `UID` is `uid`: the UID
    /// itself, when it is a name a command line can carry as the card's id (see
    /// ``id(ofHref:)``), else `nil` (the card gets a fresh name; its UID stays its own).
    static func resourceName(forUID uid: String) -> String? {
        guard (1...124).contains(uid.utf8.count), !uid.hasPrefix("."), !uid.hasPrefix(hashedIDPrefix),
            uid.utf8.allSatisfy(isIDByte)
        else { return nil }
        return uid
    }

    /// The card a vCard resource holds; `nil` for a group vCard (kept, never shown as a card).
    /// A picture given by URI counts as the card's picture when it is on `origin` (the server's
    /// own; see ``linkedPicture(_:of:on:)``).
    static func card(from resource: DAVResource, id: String, origin: ServerOrigin?) throws -> Card? {
        guard case .card(let card) = try entry(from: resource, id: id, origin: origin) else { return nil }
        return card
    }

    /// ``card(from:id:origin:)`` with this backend's origin.
    func card(from resource: DAVResource, id: String) throws -> Card? {
        try Self.card(from: resource, id: id, origin: origin)
    }

    /// What a vCard resource holds: a card, or a group of cards.
    enum Entry {
        case card(Card)
        case group(CardGroup)
    }

    /// The card or the group a vCard resource holds.
    static func entry(from resource: DAVResource, id: String, origin: ServerOrigin?) throws -> Entry {
        let vcard = try VCardResource(text: resource.vcard)
        if let group = vcard.group {
            return .group(
                CardGroup(
                    id: id, name: group.name, revision: CardRevision(rawValue: resource.etag ?? ""),
                    memberUIDs: group.memberUIDs))
        }
        let photo = vcard.picture?.photo
        var linked = false
        if case .uri(let uri) = vcard.picture { linked = linkedPicture(uri, of: resource.href, on: origin) != nil }
        // The card's own REV, else when the server says it changed (a card written without REV),
        // else when it was read: the cache keeps that until the card changes (a new ETag).
        let updated = revisionDate(in: vcard) ?? resource.lastModified ?? Date()
        return .card(
            Card(
                id: id, fields: vcard.fields, hasImage: photo != nil || linked,
                image: photo.map { CardImageInfo(contentType: $0.format.contentType, size: $0.bytes.count) },
                createdAt: updated, updatedAt: updated, revision: CardRevision(rawValue: resource.etag ?? ""),
                source: vcard.text))
    }

    /// Where a picture given by URI (`PHOTO;VALUE=uri:…`) is, when the wallet may load it: on
    /// the server's own origin (a relative link resolved against the card's address). `nil` for
    /// any other place: a link elsewhere is never followed (it would tell a third party who
    /// looked at the card, and when).
    static func linkedPicture(_ uri: String, of href: String, on origin: ServerOrigin?) -> URL? {
        guard let origin, let base = origin.url(path: href), let url = Href.resolve(uri, against: base),
            origin.contains(url)
        else { return nil }
        return url
    }

    /// The card's `REV` (when it last changed), in the forms vCard writes it.
    static func revisionDate(in vcard: VCardResource) -> Date? {
        vcard.firstValue(of: "REV").flatMap(DAVDates.iso)
    }

    /// A picture chosen for upload, as a vCard's photo.
    static func photo(_ image: ImageUpload) throws -> VCardPhoto {
        let data = try Data(contentsOf: image.url)
        return VCardPhoto(bytes: [UInt8](data), format: image.format)
    }
}
