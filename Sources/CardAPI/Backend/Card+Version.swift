public import CardBackend
public import CardModels

extension Card {
    /// The card API's version of this card: its revision as the integer the API gave (0, which
    /// no card has, when the revision is not one).
    public var version: Int { revision.number ?? 0 }
}

extension CardSummary {
    /// The card API's version of this card (see ``CardModels/Card/version``).
    public var version: Int { revision.number ?? 0 }
}

extension CardImage {
    /// The card API's version of the card the picture belongs to, when the server said.
    public var version: Int? { revision?.number }
}
