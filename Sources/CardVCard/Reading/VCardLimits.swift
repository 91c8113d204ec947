/// The bounds a reader keeps whatever its input, so hostile files cost bounded memory and time.
public struct VCardLimits: Sendable, Hashable {
    /// Longest property line after unfolding, in bytes (a 2 MiB photo is 2.8 MB of base64).
    public var maximumLineBytes: Int
    /// Most bytes in one card.
    public var maximumCardBytes: Int
    /// Most properties in one card.
    public var maximumProperties: Int
    /// Most cards in one input.
    public var maximumCards: Int

    /// Limits.
    public init(
        maximumLineBytes: Int = 4 << 20, maximumCardBytes: Int = 8 << 20, maximumProperties: Int = 1_000,
        maximumCards: Int = 100_000
    ) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumCardBytes = maximumCardBytes
        self.maximumProperties = maximumProperties
        self.maximumCards = maximumCards
    }

    /// The limits the import command uses.
    public static let standard = VCardLimits()
}
