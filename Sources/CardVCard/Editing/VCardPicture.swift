/// A card's `PHOTO` as a CardDAV resource holds it.
public enum VCardPicture: Sendable, Hashable {
    /// A PNG or JPEG image inline (base64, or a `data:` URI): the card's picture, bytes as stored.
    case image(VCardPhoto)
    /// Inline data that is not PNG or JPEG (a GIF, HEIC…), with the media type it declares when
    /// it declares one: kept as it is, not shown.
    case unsupported(mediaType: String?)
    /// A link to the picture (`PHOTO;VALUE=uri:https://…`). Reported as it is, never fetched here:
    /// the caller decides whether the address is one it may load (the server's own origin only).
    case uri(String)

    /// The image, when it is one the wallet shows.
    public var photo: VCardPhoto? {
        if case .image(let photo) = self { return photo }
        return nil
    }
}

/// What an edit does to the card's picture.
public enum VCardPictureEdit: Sendable, Hashable {
    /// Leave every `PHOTO` as it is.
    case keep
    /// Write this image as the card's `PHOTO`, in the version's own form (3.0
    /// `PHOTO;ENCODING=b;TYPE=JPEG:…`, 4.0 `PHOTO:data:image/jpeg;base64,…`), in place of the first
    /// `PHOTO` (its group kept), or added before `END:VCARD` when there is none.
    case replace(VCardPhoto)
    /// Remove every `PHOTO`, so that no other one becomes the picture.
    case remove
}

/// A group vCard (`KIND:group` in 4.0, `X-ADDRESSBOOKSERVER-KIND:group` as Apple's servers,
/// Nextcloud and iCloud keep them in 3.0): not a person, but a list of cards by `UID`.
public struct VCardGroup: Sendable, Hashable {
    /// How the vCard says it is a group.
    public enum Style: String, Sendable, Hashable {
        /// vCard 4.0's `KIND:group` with `MEMBER` properties (RFC 6350 §6.1.4, §6.6.5).
        case kind
        /// `X-ADDRESSBOOKSERVER-KIND:group` with `X-ADDRESSBOOKSERVER-MEMBER` (Apple, in 3.0).
        case addressBookServer
    }

    /// The group's name (its `FN`, else what the card is named after).
    public var name: String
    /// The members, in order: each `MEMBER` value without its `urn:uuid:` prefix (a member given
    /// as another URI, `mailto:…`, is kept as written).
    public var memberUIDs: [String]
    /// How the vCard says it is a group.
    public var style: Style

    /// A group.
    public init(name: String, memberUIDs: [String], style: Style) {
        self.name = name
        self.memberUIDs = memberUIDs
        self.style = style
    }

    /// Whether the card with `uid` is a member (`urn:uuid:` prefixes and letter case ignored,
    /// as UUIDs are compared).
    public func contains(uid: String) -> Bool {
        let wanted = Self.bareUID(uid).lowercased()
        return memberUIDs.contains { Self.bareUID($0).lowercased() == wanted }
    }

    /// `uid` without a leading `urn:uuid:` (any case) and surrounding whitespace.
    public static func bareUID(_ uid: String) -> String {
        let trimmed = uid.trimmingVCardWhitespace
        let prefix = "urn:uuid:"
        guard trimmed.utf8.count > prefix.utf8.count,
            trimmed.prefix(prefix.count).lowercased() == prefix
        else { return trimmed }
        return String(trimmed.dropFirst(prefix.count))
    }
}
