import Crypto
import Foundation

/// Bearer tokens as the server issues them: `<prefix>_<selector>.<secret>`.
///
/// The selector (96 random bits) finds the stored record; the secret (256 random bits) is
/// never stored — only its SHA-256 digest is, and a presented secret's digest is compared
/// with it in constant time. A leaked data file therefore holds no usable token.
struct OpaqueToken: Sendable, Equatable {
    /// What the token is for; the prefix keeps access and refresh tokens apart.
    enum Kind: String, Sendable {
        case access = "cwa"
        case refresh = "cwr"
    }

    let kind: Kind
    /// The public half, used as the lookup key.
    let selector: String
    /// SHA-256 of the secret half.
    let verifier: Data

    private static let selectorBytes = 12
    private static let secretBytes = 32

    /// A fresh random token: the text to hand out, and the parts to store.
    static func issue(_ kind: Kind) -> (text: String, token: OpaqueToken) {
        let selector = base64URL(randomBytes(selectorBytes))
        let secret = base64URL(randomBytes(secretBytes))
        let token = OpaqueToken(kind: kind, selector: selector, verifier: digest(secret))
        return ("\(kind.rawValue)_\(selector).\(secret)", token)
    }

    /// Reads a presented token, or `nil` when it is not one of ours (wrong kind, length or alphabet).
    static func parse(_ text: String, as kind: Kind) -> OpaqueToken? {
        let prefix = kind.rawValue + "_"
        guard text.utf8.count <= 128, text.hasPrefix(prefix) else { return nil }
        let body = text.dropFirst(prefix.count)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts[0].utf8.count == base64URLLength(selectorBytes), isBase64URL(parts[0]),
            parts[1].utf8.count == base64URLLength(secretBytes), isBase64URL(parts[1])
        else { return nil }
        return OpaqueToken(kind: kind, selector: String(parts[0]), verifier: digest(parts[1]))
    }

    /// Whether this presented token's secret matches a stored verifier, in constant time.
    func matches(storedVerifier: Data) -> Bool {
        Self.constantTimeEquals(verifier, storedVerifier)
    }

    /// Compares two byte strings in time that depends only on their lengths.
    static func constantTimeEquals(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) { difference |= a ^ b }
        return difference == 0
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        // SymmetricKey draws from the system's cryptographically secure generator.
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func base64URLLength(_ byteCount: Int) -> Int { (byteCount * 8 + 5) / 6 }

    private static func isBase64URL(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }

    private static func digest(_ secret: some StringProtocol) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }
}

/// Server-made identifiers: URL-safe, random, and checked before any lookup.
enum CardIdentifier {
    /// A new random id with a prefix, e.g. `card_3kVq…`.
    static func make(prefix: String) -> String {
        prefix + "_" + OpaqueToken.base64URL(OpaqueToken.randomBytes(12))
    }

    /// Whether `text` could be one of our ids: 1–64 ASCII letters, digits, `-` or `_`.
    ///
    /// Anything else (`../`, NUL bytes, percent signs, very long text) is refused before it
    /// reaches a dictionary, a log line or a file name.
    static func isWellFormed(_ text: some StringProtocol) -> Bool {
        let utf8 = text.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
