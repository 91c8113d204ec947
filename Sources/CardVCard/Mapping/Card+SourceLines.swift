public import CardModels

extension Card {
    /// The card as a file export writes it: a card whose server keeps its vCard (a CardDAV
    /// card, ``CardModels/Card/source``) gets the lines of that vCard that no field reads, as a
    /// card imported from it would (``VCardImporter``): its own `UID`, a second email, `X-`
    /// properties, grouped `itemN.` lines, each modelled property's original form. The writer
    /// then gives them back as the server has them, and an export loses nothing of a CardDAV
    /// card either. A field changed since (an edit not yet on the server) keeps its new value:
    /// the writer drops the original form of a field that no longer says the same.
    ///
    /// The card itself when it has no source, keeps lines of its own already (the card API's),
    /// or its source cannot be read as a vCard.
    public var withSourceLines: Card {
        guard let source, fields.vcardProperties.isEmpty,
            let imported = VCardDocument.read(bytes: Array(source.utf8)).cards.first
        else { return self }
        var card = self
        card.fields.vcardProperties = imported.fields.vcardProperties
        return card
    }
}
