import Foundation

/// Reads a document one child of the root at a time: the root's name first, then each child
/// of the root as a small ``XMLTree`` tree, handed over and dropped before the next is
/// built. A multistatus of 100,000 responses is read holding one response's tree at a time.
///
/// ```swift
/// try XMLDocumentReader.read(body, root: { name in
///     guard name == .dav("multistatus") else { throw Unexpected() }
/// }, child: { response in … })
/// ```
enum XMLDocumentReader {
    /// Reads `data`, calling `root` with the root element's name and `child` with each child of
    /// the root, in order; text directly inside the root is ignored.
    ///
    /// - Parameters:
    ///   - data: the document, UTF-8.
    ///   - limits: the caps (see ``XMLLimits``).
    ///   - root: called once, with the root's name, before any child; may throw to stop.
    ///   - child: called with each child of the root; may throw to stop.
    /// - Throws: ``XMLFailure`` for a document that is not well-formed or passes a limit, and
    ///   whatever `root` or `child` throw.
    static func read(
        _ data: Data,
        limits: XMLLimits = XMLLimits(),
        root: (XMLName) throws -> Void,
        child: (XMLTree) throws -> Void
    ) throws {
        try data.withUnsafeBytes { raw in
            try read(raw.assumingMemoryBound(to: UInt8.self), limits: limits, root: root, child: child)
        }
    }

    /// Reads a whole (small) document as one tree: for error bodies and other short answers.
    ///
    /// - Throws: ``XMLFailure``, including a root with more than ``XMLLimits/maximumSubtreeElements``.
    static func tree(_ data: Data, limits: XMLLimits = XMLLimits()) throws -> XMLTree {
        var rootName: XMLName?
        var children: [XMLTree] = []
        try read(data, limits: limits, root: { rootName = $0 }, child: { children.append($0) })
        guard let rootName else { throw XMLFailure(.malformed("there is no root element"), line: 1, column: 1) }
        return XMLTree(rootName, children: children)
    }

    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>,
        limits: XMLLimits,
        root: (XMLName) throws -> Void,
        child: (XMLTree) throws -> Void
    ) throws {
        var scanner = try XMLScanner(bytes, limits: limits)
        var builder = SubtreeBuilder(limit: limits.maximumSubtreeElements)
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes):
                if scanner.depth == 1 {
                    try root(name)
                } else {
                    guard builder.open(name, attributes: attributes) else {
                        throw scanner.failure(
                            .limitExceeded("elements in one child of the root", limit: limits.maximumSubtreeElements))
                    }
                }
            case .text(let text):
                if scanner.depth >= 2 { builder.append(text) }
            case .end:
                if scanner.depth >= 1, let finished = builder.close() { try child(finished) }
            }
        }
    }
}

/// Builds the tree of one child of the root from scanner events.
struct SubtreeBuilder {
    let limit: Int
    private var stack: [XMLTree] = []
    private var count = 0

    init(limit: Int) { self.limit = limit }

    /// Opens an element; `false` when the child of the root would pass the limit.
    mutating func open(_ name: XMLName, attributes: [XMLAttribute]) -> Bool {
        if stack.isEmpty { count = 0 }
        count += 1
        if count > limit { return false }
        var names: [XMLName: String] = [:]
        for attribute in attributes { names[attribute.name] = attribute.value }
        stack.append(XMLTree(name, attributes: names))
        return true
    }

    mutating func append(_ text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += text
    }

    /// Closes the innermost element; returns it when it was a child of the root.
    mutating func close() -> XMLTree? {
        guard var element = stack.popLast() else { return nil }
        if !element.children.isEmpty, element.isBlank { element.text = "" }
        guard !stack.isEmpty else { return element }
        stack[stack.count - 1].children.append(element)
        return nil
    }
}
