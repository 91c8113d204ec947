public import CardModels

/// An edit made offline that the server refused when the outbox was sent, because the card had
/// changed there meanwhile (E07): the form's conflict view opens with both, and the person
/// chooses. The outbox entry waits, refused and never sent again by itself, until then.
public struct OfflineConflict: Equatable, Sendable {
    /// The outbox entry of the edit (the glue's number for it).
    public var entry: Int64
    /// The card's fields as the person left them offline.
    public var fields: CardFields
    /// The card's fields as they were before the offline edit (what the person started from);
    /// the server's current fields when the cache no longer knew them.
    public var original: CardFields
    /// The version the offline edit was made on.
    public var baseRevision: CardRevision
    /// The card as the server has it now.
    public var server: Card

    /// A conflict of outbox entry `entry`.
    public init(entry: Int64, fields: CardFields, original: CardFields, baseRevision: CardRevision, server: Card) {
        self.entry = entry
        self.fields = fields
        self.original = original
        self.baseRevision = baseRevision
        self.server = server
    }
}

extension FormState {
    /// The conflict view of an edit made offline: the form opens on the card as the person
    /// started from it, holds the person's offline text, and shows the server's version beside
    /// it (fields only the server changed take the server's value, as after an online E07).
    /// Saving sends the person's fields over the server's version; leaving keeps the server's.
    public init(resolving conflict: OfflineConflict) {
        var card = conflict.server
        card.fields = conflict.original
        card.revision = conflict.baseRevision
        self.init(editing: card, returnsToDetail: false)
        for index in fields.indices {
            guard case .card(let field) = fields[index].kind else { continue }
            let mine = conflict.fields[field]
            guard mine != fields[index].original else { continue }
            fields[index].input = TextFieldState(mine)
            fields[index].isTouched = true
        }
        offlineEntry = conflict.entry
        merge(serverVersion: conflict.server)
    }
}
