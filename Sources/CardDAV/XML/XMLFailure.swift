import TextSafety

/// Why an XML document was refused, and where: the reader stops at the first problem and
/// reports it with a line and column (1-based, columns counted in bytes).
struct XMLFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    enum Reason: Sendable, Hashable {
        /// A `<!DOCTYPE …>`: document type declarations are never processed (no entity
        /// definitions, no external files), so a document that has one is refused whole.
        case doctypeRefused
        /// An entity reference other than the five XML predefines and numeric references.
        case undeclaredEntity(String)
        /// A character reference to a character XML does not allow (NUL, a surrogate…).
        case invalidCharacterReference(String)
        /// One of ``XMLLimits`` was passed; the first value names which, the second its limit.
        case limitExceeded(String, limit: Int)
        /// A namespace prefix with no declaration in scope.
        case unboundPrefix(String)
        /// An end tag that does not close the open element.
        case mismatchedEndTag(expected: String, found: String)
        /// The document ends inside markup or with elements left open.
        case unexpectedEnd
        /// Bytes that are not UTF-8, or an encoding other than UTF-8 declared.
        case unsupportedEncoding(String)
        /// Any other break of XML's syntax, described.
        case malformed(String)
    }

    /// What was wrong.
    let reason: Reason
    /// The line, from 1.
    let line: Int
    /// The column in bytes, from 1.
    let column: Int

    /// A failure at a place.
    init(_ reason: Reason, line: Int, column: Int) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// What was wrong and where, terminal-safe.
    var description: String {
        "\(explanation) (line \(line), column \(column))"
    }

    private var explanation: String {
        switch reason {
        case .doctypeRefused:
            return "it has a document type declaration (<!DOCTYPE>), which cardwallet never processes"
        case .undeclaredEntity(let name):
            return "it uses the entity &\(Self.shown(name));, which is not one of XML's five"
        case .invalidCharacterReference(let text):
            return "the character reference &\(Self.shown(text)); is not a character XML allows"
        case .limitExceeded(let what, let limit):
            return "it has more than \(limit) \(what)"
        case .unboundPrefix(let prefix):
            return "the namespace prefix “\(Self.shown(prefix))” is not declared"
        case .mismatchedEndTag(let expected, let found):
            return "the end tag </\(Self.shown(found))> does not close <\(Self.shown(expected))>"
        case .unexpectedEnd:
            return "it ends before its elements are closed"
        case .unsupportedEncoding(let what):
            return "it is not UTF-8 (\(Self.shown(what)))"
        case .malformed(let what):
            return "it is not well-formed XML: \(what)"
        }
    }

    /// Untrusted text from the document, cut short and made terminal-safe.
    static func shown(_ text: String) -> String {
        TerminalText.escaped(text.count > 60 ? String(text.prefix(60)) + "…" : text)
    }
}
