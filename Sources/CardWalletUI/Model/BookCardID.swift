/// A card's id in the All view, where cards of several books show together (issue 40): the tag
/// of its book (a short number the glue gives each book for the run), `/`, and the card's own
/// id. Ids of two books may be equal (a card copied between two CardDAV books keeps its name),
/// so the list, the marks and the calls carry both; the glue sends each call to the card's own
/// book. No card id holds a `/` (the card API's are URL-safe words; a CardDAV card's is its
/// resource's name), so the first one splits them.
public enum BookCardID {
    /// The id of card `id` of the book tagged `tag`.
    public static func make(book tag: String, id: String) -> String { tag + "/" + id }

    /// The book's tag and the card's own id, when `id` is one of the All view's; `nil` otherwise.
    public static func split(_ id: String) -> (book: String, id: String)? {
        guard let slash = id.firstIndex(of: "/") else { return nil }
        return (String(id[..<slash]), String(id[id.index(after: slash)...]))
    }

    /// The card's own id (what people see and type), whether or not `id` names its book.
    public static func bare(_ id: String) -> String { split(id)?.id ?? id }
}
