import Crypto
public import Foundation

/// Proof Key for Code Exchange (RFC 7636) with `S256`, and the `state` of RFC 6749 §10.12: the
/// random values one login makes and never shows.
public struct PKCE: Sendable {
    /// The verifier: 32 random bytes as base64url (43 characters, within RFC 7636 §4.1's 43–128).
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`.
    public let challenge: String
    /// The `state` sent with the authorization request and expected back with the redirect.
    public let state: String

    /// Fresh values from the system's cryptographic random source.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(
            verifier: Self.randomText(bytes: 32, using: &generator),
            state: Self.randomText(bytes: 16, using: &generator))
    }

    /// Given values (for tests: RFC 7636 Appendix B's example).
    public init(verifier: String, state: String) {
        self.verifier = verifier
        self.challenge = Self.challenge(of: verifier)
        self.state = state
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(of verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// `count` random bytes as base64url without padding.
    static func randomText(bytes count: Int, using generator: inout SystemRandomNumberGenerator) -> String {
        base64URL(Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// Base64url without padding (RFC 7636 Appendix A).
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding.
    public static func decodeBase64URL(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
