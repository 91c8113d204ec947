import NIOHTTP1

/// HTTP header fields in order, with case-insensitive names.
///
/// Names compare case-insensitively (`content-type` finds `Content-Type`); a name may repeat
/// (`Set-Cookie`). Use the subscript or ``set(_:for:)`` to replace every value of a name, and
/// ``add(_:for:)`` to append one more.
///
/// ```swift
/// var headers: Headers = ["Accept": "application/json"]
/// headers["Authorization"] = "Bearer \(token)"   // replaces any existing value
/// headers.add("a=1", for: "Cookie")               // keeps existing values
/// ```
///
/// The storage is NIO's header block, so handing headers to and from the live transport copies
/// nothing.
public struct Headers: Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    var storage: HTTPHeaders

    /// No headers.
    public init() { storage = HTTPHeaders() }

    /// Headers from name–value pairs, in order.
    public init(_ fields: [(name: String, value: String)]) {
        storage = HTTPHeaders(fields.map { ($0.name, $0.value) })
    }

    /// Headers from a literal: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = HTTPHeaders(elements)
    }

    init(storage: HTTPHeaders) { self.storage = storage }

    /// The first value of `name`; setting replaces every value of `name` (`nil` removes them).
    public subscript(name: String) -> String? {
        get { storage.first(name: name) }
        set {
            if let newValue { storage.replaceOrAdd(name: name, value: newValue) } else { storage.remove(name: name) }
        }
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] { storage[name] }

    /// Whether a field called `name` exists.
    public func contains(_ name: String) -> Bool { storage.contains(name: name) }

    /// Replaces every value of `name` with `value` (adds it if absent), keeping the first field's position.
    public mutating func set(_ value: String, for name: String) { storage.replaceOrAdd(name: name, value: value) }

    /// Appends a field, keeping any existing values of `name`.
    public mutating func add(_ value: String, for name: String) { storage.add(name: name, value: value) }

    /// Removes every value of `name`.
    public mutating func remove(_ name: String) { storage.remove(name: name) }

    /// These headers with every name in `other` replaced by `other`'s values.
    public func merging(_ other: Headers) -> Headers {
        var merged = self
        for name in Set(other.storage.map { $0.name.lowercased() }) { merged.storage.remove(name: name) }
        merged.storage.add(contentsOf: other.storage)
        return merged
    }

    /// The number of fields.
    public var count: Int { storage.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { storage.isEmpty }

    /// The fields in order.
    public var fields: [(name: String, value: String)] { storage.map { ($0.name, $0.value) } }

    /// `Name: value` pairs joined by `; `, sensitive values shown as `<private>`
    /// (see ``Redaction/default``), so printing headers never prints a token.
    public var description: String {
        Redaction.default.redact(self).storage.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
    }
}

extension Headers: Sequence {
    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}

extension Headers: Equatable {
    /// The same fields in the same order; names compare case-insensitively, values exactly.
    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        return zip(lhs.storage, rhs.storage).allSatisfy { left, right in
            left.value == right.value && left.name.lowercased() == right.name.lowercased()
        }
    }
}

extension Headers: Hashable {
    /// Hashes names case-insensitively and values exactly, in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.count)
        for field in storage {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}
