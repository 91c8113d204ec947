public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rules a server address must follow before any password or token is sent to it.
///
/// - No user name or password in it (`http://user:pw@host/v1`): it would be echoed in messages
///   and stored in the token file, and the API logs in with email and password anyway.
/// - Plain `http://` only to this computer: a loopback host (`localhost`, `127.0.0.0/8`, `::1`).
///   Any other host needs `https://`, or an explicit permission (`allowsInsecureHTTP`), as git
///   and browsers require for credentials.
public enum ServerAddress {
    /// Whether `text` holds user info (`…://user:pw@host…`), judged on the text itself so that
    /// a value no URL parser accepts is caught too.
    public static func hasUserInfo(_ text: String) -> Bool {
        guard let authority = authorityRange(in: text) else { return false }
        return text[authority].contains("@")
    }

    /// `text` with any user info replaced by `<private>`: `http://<private>@host/v1`.
    public static func maskingUserInfo(_ text: String) -> String {
        guard let authority = authorityRange(in: text), let at = text[authority].lastIndex(of: "@") else {
            return text
        }
        return String(text[..<authority.lowerBound]) + "<private>" + String(text[at...])
    }

    /// Whether `host` (as `URL.host()` or `URLComponents.host` give it, brackets or not) is this
    /// computer: `localhost`, an IPv4 address in `127.0.0.0/8`, `::1`, or an IPv4-mapped
    /// loopback address. Other names are not resolved: a name is only as loopback as DNS says.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name = String(name.dropLast()) }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        // ::ffff:127.x.y.z
        return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// Whether passwords and tokens sent to `url` would travel unencrypted over a network:
    /// plain `http` to a host that is not loopback.
    public static func isInsecure(_ url: URL) -> Bool {
        guard url.scheme?.lowercased() == "http" else { return false }
        return !isLoopback(host: url.host(percentEncoded: false) ?? "")
    }

    /// The range of the authority (`user:pw@host:port`) after `scheme://`.
    private static func authorityRange(in text: String) -> Range<String.Index>? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return separator.upperBound..<end
    }
}
