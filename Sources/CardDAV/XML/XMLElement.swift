/// One element and what it holds: a small tree, built for one child of a document's root at a
/// time (one `response` of a multistatus), never for a whole document.
public struct XMLElement: Sendable, Hashable {
    /// The namespace-resolved name.
    public var name: XMLName
    /// The attributes, namespace-resolved (an unprefixed attribute has no namespace).
    public var attributes: [XMLName: String]
    /// The child elements, in document order.
    public var children: [XMLElement]
    /// The element's own text (character data and CDATA, joined; white space between child
    /// elements is dropped), entities decoded and line ends normalised to LF, as XML requires.
    public var text: String

    /// An element.
    public init(
        _ name: XMLName, attributes: [XMLName: String] = [:], children: [XMLElement] = [], text: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child called `name`, or `nil`.
    public func child(_ name: XMLName) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child called `name`, in order.
    public func children(_ name: XMLName) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The element's text with white space trimmed at both ends (hrefs, statuses, tokens).
    public var trimmedText: String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
