/// One element and what it holds: a small tree, built for one child of a document's root at a
/// time (one `response` of a multistatus), never for a whole document.
struct XMLTree: Sendable, Hashable {
    /// The namespace-resolved name.
    var name: XMLName
    /// The attributes, namespace-resolved (an unprefixed attribute has no namespace).
    var attributes: [XMLName: String]
    /// The child elements, in document order.
    var children: [XMLTree]
    /// The element's own text (character data and CDATA, joined; white space between child
    /// elements is dropped), entities decoded and line ends normalised to LF, as XML requires.
    var text: String

    /// An element.
    init(
        _ name: XMLName, attributes: [XMLName: String] = [:], children: [XMLTree] = [], text: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child called `name`, or `nil`.
    func child(_ name: XMLName) -> XMLTree? {
        children.first { $0.name == name }
    }

    /// Every child called `name`, in order.
    func children(_ name: XMLName) -> [XMLTree] {
        children.filter { $0.name == name }
    }

    /// The element's text with white space trimmed at both ends (hrefs, statuses, tokens).
    var trimmedText: String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
