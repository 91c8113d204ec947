import Synchronization

/// Identifies one logical request across its attempts, unique in the process.
///
/// Every ``Request`` made by any ``Provider`` gets the next number, so several providers can share
/// one ``LoggerPlugin`` and its events still tell exchanges apart.
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, increasing from 1 within a process.
    public let rawValue: UInt64

    /// An identifier with a given number (tests and decoding); use ``next()`` for new requests.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    private static let counter = Atomic<UInt64>(0)

    /// A new identifier, never handed out before in this process.
    public static func next() -> RequestID {
        RequestID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    /// `#42`.
    public var description: String { "#\(rawValue)" }

    /// Orders by number, which is creation order.
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }
}
