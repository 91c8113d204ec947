public import DomainNames
public import Foundation
import Synchronization

/// Where a CardDAV client may send the password and follow the server: **the one rule**, which
/// discovery (redirects, principals, homes), every request and the interceptor that adds the
/// password all ask.
///
/// A URL is within the scope when it is on the origin of the address the person gave (scheme,
/// host and port), or when all of these hold:
/// - it is `https`, and so is the address given: the password never crosses a network in the
///   clear, and an `https` server never sends it on to `http`;
/// - its host is within the same registrable domain as the address's host, by the Public Suffix
///   List (both of its sections, so each name under `github.io` is a domain of its own), read
///   by `DomainNames`, the reader the scanner uses: `contacts.icloud.com` → `p42-contacts.icloud.com`
///   and `fastmail.com` → `carddav.fastmail.com` are within; `evil.example` is not; an IP
///   address, a host whose ending the list does not know, or no list at all leave only the
///   address's own origin;
/// - the person is told which host the password went to: the client keeps each such host
///   (``CardDAVClient/passwordHosts``) and the login says it (`CardDAVBackend.passwordHostNote`).
///
/// Anything else ends the call with ``CardDAVError/foreignLocation(server:location:)`` before a
/// byte is sent.
public struct CredentialScope: Sendable {
    /// The origin of the address the person gave.
    public let server: ServerOrigin
    /// The list that tells registrable domains, or `nil` (only ``server`` is within the scope).
    private let domains: PublicSuffixList?

    /// What the rule says of a URL.
    public enum Verdict: Sendable, Hashable {
        /// The address's own origin.
        case server
        /// Another `https` host of the same registrable domain (`domain`).
        case sameDomain(host: String, domain: String)
        /// Outside the scope: never sent to, never followed.
        case refused
    }

    /// The scope of the address `server`, with registrable domains told by `domains` (the
    /// system's Public Suffix List by default; `nil`: no other host is ever within).
    public init(server: ServerOrigin, domains: PublicSuffixList? = Self.systemDomains) {
        self.server = server
        self.domains = domains
    }

    /// The Public Suffix List this process reads (`DomainNames`' `PublicSuffixList.system`), or
    /// `nil` when there is none to read.
    public static var systemDomains: PublicSuffixList? { try? PublicSuffixList.system.get() }

    /// What the rule says of `url`.
    public func verdict(for url: URL) -> Verdict {
        guard let origin = ServerOrigin(url) else { return .refused }
        if origin == server { return .server }
        guard server.scheme == "https", origin.scheme == "https", let domains,
            let domain = domains.registrableDomain(of: server.host),
            domains.registrableDomain(of: origin.host) == domain
        else { return .refused }
        return .sameDomain(host: origin.host, domain: domain)
    }

    /// Whether `url` is within the scope.
    public func admits(_ url: URL) -> Bool { verdict(for: url) != .refused }

    /// The registrable domain of the address's host, when it has one the list knows.
    public var serverDomain: String? { domains?.registrableDomain(of: server.host) }
}

/// The hosts other than the address's own that a client sent the password to, in the order
/// first sent: what the login tells the person. Shared by a client and its interceptor.
final class PasswordLedger: Sendable {
    private let hosts = Mutex<[String]>([])

    /// Notes that the password went to `host`.
    func record(_ host: String) {
        hosts.withLock { if !$0.contains(host) { $0.append(host) } }
    }

    /// The hosts, in the order first sent.
    var recorded: [String] { hosts.withLock { $0 } }
}
