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

    /// The element's text with XML white space (space, tab, CR, LF) trimmed at both ends
    /// (hrefs, statuses, tokens). Works on the UTF-8 bytes: a sync answer trims thousands.
    var trimmedText: String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !XMLScanner.isSpace($0) }) else { return "" }
        let end = utf8.index(after: utf8.lastIndex(where: { !XMLScanner.isSpace($0) }) ?? first)
        if first == utf8.startIndex && end == utf8.endIndex { return text }
        return String(text[first..<end])
    }

    /// Whether the element's text is XML white space only (or empty).
    var isBlank: Bool {
        text.utf8.allSatisfy(XMLScanner.isSpace)
    }
}
