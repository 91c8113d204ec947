/// Request parameters: names to values, encoded into a query string, a form body or JSON by a
/// ``ParameterEncoding``. Keys are encoded in sorted order, so the same parameters always give
/// the same bytes.
public typealias Parameters = [String: ParameterValue]

/// A parameter value: a scalar, an array or a nested dictionary. Write it as a literal:
///
/// ```swift
/// let parameters: Parameters = ["q": "bob", "page": 2, "tags": ["a", "b"], "filter": ["kind": "x"]]
/// ```
public enum ParameterValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A Boolean; URL encoding writes it as `1`/`0` or `true`/`false` (see ``BoolEncoding``).
    case bool(Bool)
    /// An ordered list; URL encoding writes `a[]=1&a[]=2` by default (see ``ArrayEncoding``).
    case array([ParameterValue])
    /// A nested dictionary; URL encoding writes `a[b]=c`.
    case dictionary([String: ParameterValue])
    /// JSON `null`; URL encoding leaves the key out.
    case null
}

extension ParameterValue: ExpressibleByStringLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    /// An integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    /// A floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    /// An array value.
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    /// A nested dictionary value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ParameterValue: ExpressibleByNilLiteral {
    /// The `null` value.
    public init(nilLiteral: ()) { self = .null }
}

extension ParameterValue: Encodable {
    /// Encodes as the matching JSON value.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .int(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .double(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .bool(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .array(let values):
            var c = encoder.unkeyedContainer()
            for value in values { try c.encode(value) }
        case .dictionary(let values):
            var c = encoder.singleValueContainer()
            try c.encode(values)
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        }
    }
}
