public import Hummingbird
import NIOCore

/// The per-request context of the mock server: who is calling, from where.
public struct MockServerRequestContext: RequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address, the key of the rate limits; `local` when there is no socket
    /// (router tests).
    public let clientAddress: String
    /// The authenticated user's id, set by the authentication middleware on card routes.
    public internal(set) var userID: String?

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "local"
        userID = nil
    }
}
