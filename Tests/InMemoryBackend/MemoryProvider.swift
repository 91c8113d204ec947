public import CardBackend
public import CardProviders
public import Foundation

/// The memory backend's provider: how a test registers ``MemoryBackend`` in the composition
/// root's list of providers (`Providers.standard + [MemoryProvider(backend)]`), as a backend
/// module would. Adding it touches no file outside this module but that list.
public struct MemoryProvider: BackendProvider {
    /// The kind: `memory`.
    public static let kind = BackendKind(id: "memory", name: "memory")

    /// The backends, one per server (the tests' servers).
    public let backends: [MemoryBackend]

    /// The provider of `backends`, each at its own server.
    public init(_ backends: MemoryBackend...) {
        self.backends = backends
    }

    /// The backend at `server`.
    func backend(at server: URL) -> MemoryBackend? {
        backends.first { ServerAddress.sameServer($0.server, server.absoluteString) }
    }

    public var kind: BackendKind { Self.kind }
    public var logins: Set<LoginMethod> { [.password] }

    /// Claims the memory backends' own addresses only.
    public func probe(_ server: URL, context: ProviderContext) async -> ProbeAnswer {
        backend(at: server) == nil ? .no : .yes
    }

    public func makeBackend(_ target: BackendTarget, context: ProviderContext) throws -> any CardBackend {
        guard let backend = backend(at: target.server) else { throw MemoryFailure(.badAddress) }
        return backend
    }
}
