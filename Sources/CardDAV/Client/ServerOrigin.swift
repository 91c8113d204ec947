import CardBackend
public import Foundation
import Networking

/// The scheme, host and port of a URL: the one place a CardDAV client sends the password to,
/// and the only place whose hrefs and redirects it follows.
public struct ServerOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower-case.
    public let scheme: String
    /// The host, lower-case, without brackets.
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int

    /// The origin of `url`, or `nil` when it is not an `http` or `https` URL with a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = url.host(percentEncoded: false)?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `https://example.com` (the port only when it is not the scheme's default).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return port == defaultPort ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }

    /// Whether `url` has this origin.
    public func contains(_ url: URL) -> Bool { ServerOrigin(url) == self }

    /// The URL of `path` (an absolute, percent-encoded path) on this origin.
    func url(path: String) -> URL? {
        URL(string: description + (path.hasPrefix("/") ? path : "/" + path))
    }

    /// Whether a password sent here would cross a network unencrypted: plain `http` to a host
    /// that is not this computer. The rule of the card API's `ServerAddress`, which it mirrors
    /// (CardDAV does not depend on CardAPI): `localhost`, `127.0.0.0/8`, `::1` and IPv4-mapped
    /// loopback addresses count as this computer; other names are not resolved.
    public var isInsecure: Bool {
        scheme == "http" && !Self.isLoopback(host: host)
    }

    /// Whether `host` is this computer: the one rule, `ServerAddress.isLoopback(host:)`.
    public static func isLoopback(host: String) -> Bool {
        ServerAddress.isLoopback(host: host)
    }
}

/// Hrefs as the client keeps them: the absolute path on the server, percent-encoded one way
/// (RFC 3986 normalisation: escapes of characters that need none decoded, other escapes in
/// upper case), so that `/a%7eb/x%40y.vcf` from one answer and `/a~b/x@y.vcf` from the next
/// name the same card.
enum Href {
    /// The URL an href names, resolved against `base` (the request's URL), or `nil` when it is
    /// not a URL at all.
    static func resolve(_ href: String, against base: URL) -> URL? {
        if let url = URL(string: href, relativeTo: base)?.absoluteURL { return url }
        // A server that sends a space or a non-ASCII character raw: escape what URLs cannot hold.
        let escaped = href.addingPercentEncoding(withAllowedCharacters: allowedInHref) ?? href
        return URL(string: escaped, relativeTo: base)?.absoluteURL
    }

    /// The canonical form of `href` when it is a plain absolute path (`/alice/book/x.vcf`, what
    /// servers send): no scheme or authority, no query or fragment, no `.` or `..` segment, and
    /// nothing but path characters and escapes. Such an href names that path on the request's
    /// own origin, so no URL needs to be built (a sync answer holds thousands). `nil` for any
    /// other href, which ``resolve(_:against:)`` handles.
    static func plainAbsolutePath(_ href: String) -> String? {
        let bytes = Array(href.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count == 1 || bytes[1] != UInt8(ascii: "/") else { return nil }
        var segmentStart = true
        var dots = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "/"):
                if segmentStart && dots > 0 { return nil }
                segmentStart = true
                dots = 0
                continue
            case UInt8(ascii: "."):
                if segmentStart { dots += 1 }
                continue
            case UInt8(ascii: "%"):
                // A valid escape, and never of a dot (`%2E` segments are for the slow path).
                guard index + 1 < bytes.count, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]),
                    high << 4 | low != UInt8(ascii: ".")
                else { return nil }
                index += 2
            default:
                guard PathEscaping.isPathSafe(byte) else { return nil }
            }
            segmentStart = false
        }
        if segmentStart && dots > 0 { return nil }
        return canonical(href)
    }

    /// The canonical absolute path of `url`.
    static func path(of url: URL) -> String {
        let raw = url.path(percentEncoded: true)
        return canonical(raw.isEmpty ? "/" : raw)
    }

    /// `path` (percent-encoded) in canonical form.
    static func canonical(_ path: String) -> String {
        // Already canonical (no escapes, nothing to escape): the same string, its storage shared.
        if path.utf8.allSatisfy(PathEscaping.isPathSafe) { return path }
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if PathEscaping.isPathSafe(decoded) && decoded != UInt8(ascii: "/") {
                    output.append(decoded)
                } else {
                    PathEscaping.appendEscaped(decoded, to: &output)
                }
                index += 3
            } else if PathEscaping.isPathSafe(byte) {
                output.append(byte)
                index += 1
            } else {
                PathEscaping.appendEscaped(byte, to: &output)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `path` is `collection` itself or inside it (both canonical; a collection's path
    /// may come with or without its trailing slash).
    static func isInside(_ path: String, collection: String) -> Bool {
        let folder = collection.hasSuffix("/") ? collection : collection + "/"
        return path.utf8.count > folder.utf8.count && path.utf8.starts(with: folder.utf8)
    }

    /// Whether two canonical paths name the same collection (one may lack the trailing slash).
    static func sameCollection(_ first: String, _ second: String) -> Bool {
        func trimmed(_ path: String) -> Substring { path.hasSuffix("/") ? path.dropLast() : path[...] }
        return trimmed(first) == trimmed(second)
    }

    private static let allowedInHref: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.insert(charactersIn: "%:/?#[]@")
        return set
    }()

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
