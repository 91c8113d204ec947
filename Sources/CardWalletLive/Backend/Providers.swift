import CardAPI
import CardDAV
public import CardProviders

/// The kinds of server this program knows: the one list of providers, read by the composition
/// root (``LiveBackends``). A new kind of server adds its provider here and nowhere else above
/// its own module (docs/Architecture.md, "How to add a backend"); tests pass the list with
/// theirs added.
public enum Providers {
    /// The card API, then CardDAV (which takes, at a login, what answers as no other kind).
    public static let standard: [any BackendProvider] = [CardAPIProvider(), CardDAVProvider()]
}
