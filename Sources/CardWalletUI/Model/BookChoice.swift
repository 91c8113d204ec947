/// An address book as the interface offers it for a move or a copy (issue 40): any book of any
/// stored account.
public struct BookChoice: Equatable, Hashable, Sendable {
    /// The tag the glue gives the book for the run (``BookCardID``): what the call names.
    public var tag: String
    /// What people call it (unique among the books).
    public var label: String
    /// Its account's name.
    public var account: String
    /// Whether it is the book of the account in use.
    public var inUse: Bool

    /// A book.
    public init(tag: String, label: String, account: String, inUse: Bool) {
        self.tag = tag
        self.label = label
        self.account = account
        self.inUse = inUse
    }
}
