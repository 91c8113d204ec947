/// An element or attribute name with its namespace resolved: servers choose their own prefixes
/// (`D:`, `d:`, `ns0:`, a default namespace), so names are compared by namespace and local name.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The namespace, for example `DAV:`; empty for none.
    public var namespace: String
    /// The local name, for example `multistatus`.
    public var local: String

    /// A name in `namespace`.
    public init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// `{DAV:}multistatus` (Clark notation).
    public var description: String { "{\(namespace)}\(local)" }

    /// The WebDAV namespace.
    public static let davNamespace = "DAV:"
    /// The CardDAV namespace (RFC 6352).
    public static let cardDAVNamespace = "urn:ietf:params:xml:ns:carddav"
    /// The Calendar Server namespace, where `getctag` lives.
    public static let calendarServerNamespace = "http://calendarserver.org/ns/"

    /// A name in the `DAV:` namespace.
    public static func dav(_ local: String) -> XMLName { XMLName(davNamespace, local) }
    /// A name in the CardDAV namespace.
    public static func cardDAV(_ local: String) -> XMLName { XMLName(cardDAVNamespace, local) }
    /// A name in the Calendar Server namespace.
    public static func calendarServer(_ local: String) -> XMLName { XMLName(calendarServerNamespace, local) }
}
