import Networking

/// The logger plugin the interface's clients share: failures tagged with the server's error
/// code (`E06`…), no `created` events (each request shows once, when sent).
enum TUILogger {
    /// A new plugin.
    static func make() -> LoggerPlugin {
        LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode"), recordsCreated: false))
    }
}
