public import CardModels

/// A card's picture from its vCard: PNG or JPEG bytes, exactly as they were in the file.
public struct VCardPhoto: Sendable, Hashable {
    /// The image bytes.
    public var bytes: [UInt8]
    /// PNG or JPEG, from the first bytes.
    public var format: CardImageFormat

    /// A photo.
    public init(bytes: [UInt8], format: CardImageFormat) {
        self.bytes = bytes
        self.format = format
    }
}

/// A vCard mapped onto the wallet's card: what to create or update.
public struct ImportedCard: Sendable, Hashable {
    /// The fields, including the lines the card does not model (``CardFields/vcardProperties``).
    public var fields: CardFields
    /// The picture, when the vCard had a PNG or JPEG one.
    public var photo: VCardPhoto?
    /// The vCard's `UID`, also when it is one CardWallet derived (and does not keep).
    public var uid: String?
    /// Whether the vCard said anything about the fields vCard cannot hold (fun facts, avatar):
    /// when it did not, an update leaves the wallet's values alone.
    public var carriesWalletFields: Bool
    /// The line of its `BEGIN:VCARD`.
    public var line: Int
    /// What the import changed or could not keep, though the card comes in: a value clipped to
    /// its field, a name derived from the organisation, email or phone, a kept line left out, a
    /// charset read by a fallback. One report line each, at their lines.
    public var warnings: [VCardProblem]

    /// An imported card.
    public init(
        fields: CardFields, photo: VCardPhoto? = nil, uid: String? = nil, carriesWalletFields: Bool = false,
        line: Int = 0, warnings: [VCardProblem] = []
    ) {
        self.fields = fields
        self.photo = photo
        self.uid = uid
        self.carriesWalletFields = carriesWalletFields
        self.line = line
        self.warnings = warnings
    }
}

/// Options of the mapping.
public struct VCardImportOptions: Sendable, Hashable {
    /// The largest photo accepted, in bytes (the server's limit).
    public var maximumImageBytes: Int

    /// Options.
    public init(maximumImageBytes: Int = CardLimits.imageMaxBytes) {
        self.maximumImageBytes = maximumImageBytes
    }
}
