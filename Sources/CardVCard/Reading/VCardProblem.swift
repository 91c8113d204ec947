/// Something wrong at a line of the input: the card it belongs to is skipped, the rest read on.
public struct VCardProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// What is wrong, for people: `the photo is not a PNG or JPEG image`.
    public var message: String

    /// A problem.
    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `line 12: …`.
    public var description: String { "line \(line): \(message)" }

    /// `FILE:LINE: what is wrong`, the form compilers use, which editors jump to.
    public func formatted(file: String) -> String { "\(file):\(line): \(message)" }
}

/// Why a whole input is not read: it is not vCard at all (binary, empty, only broken cards) or
/// it goes past a limit. One line; nothing of the input is used.
public struct VCardRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, for people: `not a vCard file (binary data)`.
    public var reason: String

    /// A refusal.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
