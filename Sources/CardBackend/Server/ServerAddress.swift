import CardModels
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

extension ServerAddress {
    /// Parses a server address a person typed (`--server`, `CARDWALLET_SERVER`, the login form)
    /// and checks it against the rules above, whatever the kind of server.
    ///
    /// - Parameters:
    ///   - text: for example `http://127.0.0.1:8080/v1` or `https://dav.example.com/`.
    ///   - allowingInsecureHTTP: whether plain `http://` to a host other than this computer is
    ///     accepted (the user said so explicitly); loopback hosts are always accepted.
    /// - Returns: the URL without trailing slashes.
    /// - Throws: ``ServerAddressError`` unless it is an `http` or `https` URL with a host (and no
    ///   query, fragment, user name or password; a password is never echoed: the error holds the
    ///   text with its user info as `<private>`), or for plain `http://` to another computer
    ///   unless `allowingInsecureHTTP`.
    public static func url(_ text: String, allowingInsecureHTTP: Bool = false) throws(ServerAddressError) -> URL {
        let trimmed = key(text)
        let shown = maskingUserInfo(text)
        guard !hasUserInfo(trimmed),
            let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil,
            let url = components.url
        else {
            throw ServerAddressError(.invalid(shown))
        }
        if !allowingInsecureHTTP && isInsecure(url) { throw ServerAddressError(.insecure(url.absoluteString)) }
        return url
    }

    /// The form servers are stored and looked up in (the token file's and the cache's key):
    /// surrounding whitespace and trailing slashes removed, so `http://h/v1/` and `http://h/v1`
    /// name the same server.
    public static func key(_ server: String) -> String {
        var result = Substring(server.trimmingCharacters(in: .whitespacesAndNewlines))
        while result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }

    /// The wallet's identity (the cache's key) of an account at `server` on the address book
    /// `book` (its id) where the server has books: `https://dav.example.com#book=contacts`, so
    /// that each book has a cache of its own; the server's key where it has none.
    public static func walletKey(server: String, book: String?) -> String {
        guard let book else { return key(server) }
        return key(server) + "#book=" + book
    }

    /// Whether two addresses name the same server (their keys are equal).
    public static func sameServer(_ a: String, _ b: String) -> Bool {
        key(a) == key(b)
    }

    /// An address like the ones the messages give as examples.
    public static let example = "http://127.0.0.1:8080/v1"
}

/// A server address that cannot be used; nothing was sent.
public struct ServerAddressError: BackendFailure, Equatable {
    /// What is wrong with it.
    public enum Problem: Sendable, Hashable {
        /// Not an `http` or `https` URL with a host, or a user name or password in it (the
        /// text as given, its user info as `<private>`).
        case invalid(String)
        /// Plain `http://` to another computer, not allowed.
        case insecure(String)
    }

    /// What is wrong.
    public var problem: Problem

    /// An error.
    public init(_ problem: Problem) { self.problem = problem }

    public var failureKind: BackendFailureKind {
        switch problem {
        case .invalid: .badAddress
        case .insecure: .insecureServer
        }
    }

    /// A sentence saying what is wrong and what to give instead.
    public var description: String {
        switch problem {
        case .invalid(let text) where ServerAddress.hasUserInfo(text):
            "The server address “\(Self.shown(text))” holds a user name or password, which cardwallet never "
                + "sends or stores that way. Give the address without “…@”, like \(ServerAddress.example), and log "
                + "in with your email and password."
        case .invalid(let text):
            "“\(Self.shown(text))” is not a server address. Give one like \(ServerAddress.example)."
        case .insecure(let server):
            "Refusing to send your password and tokens to \(Self.shown(server)) unencrypted: plain http:// is only "
                + "used for this computer (localhost, 127.0.0.1, ::1). Use the server's https:// address, or allow "
                + "plain http:// explicitly if you trust the network."
        }
    }

    /// Untrusted text cut to 200 characters and made safe for a terminal.
    private static func shown(_ text: String) -> String {
        TerminalText.escaped(text.count > 200 ? String(text.prefix(200)) + "…" : text)
    }
}
