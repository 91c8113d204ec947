/// The form a bearer token must have before it is kept: RFC 6750's `b64token` (RFC 9110's
/// `token68`) — letters, digits and `- . _ ~ + /`, then optionally `=` padding — of at most
/// ``maximumLength`` characters.
///
/// Checked when tokens arrive (login and refresh answers), so a token that cannot travel in a
/// header (a trailing `\n`, a space, a control character) is refused once, with a clear
/// message, instead of being stored and then failing every request with an error that quotes
/// it.
public enum TokenSyntax {
    /// The longest token accepted: 4,096 characters, far above any real one and well within
    /// every server's header limits.
    public static let maximumLength = 4096

    /// Whether `token` is a visible-ASCII `token68` of at most ``maximumLength`` characters.
    public static func isValid(_ token: String) -> Bool {
        let bytes = token.utf8
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        var padding = false
        for byte in bytes {
            if byte == UInt8(ascii: "=") {
                padding = true
                continue
            }
            if padding || !isTokenByte(byte) { return false }
        }
        // Padding alone is not a token.
        return bytes.first != UInt8(ascii: "=")
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}
