public import CardBackend
public import CardProviders
public import Foundation

/// The memory backend's provider: how a test registers ``MemoryBackend`` in the composition
/// root's list of providers (`Providers.standard + [MemoryProvider(backend)]`), as a backend
/// module would. Adding it touches no file outside this module but that list.
public struct MemoryProvider: BackendProvider {
    /// The kind: `memory`.
    public static let kind = BackendKind(id: "memory", name: "memory")

    /// The one backend every account of this kind is on (the tests' server).
    public let backend: MemoryBackend

    /// The provider of `backend`.
    public init(_ backend: MemoryBackend) {
        self.backend = backend
    }

    public var kind: BackendKind { Self.kind }
    public var logins: Set<LoginMethod> { [.password] }

    /// Claims the memory backend's own address only.
    public func probe(_ server: URL, context: ProviderContext) async -> ProbeAnswer {
        ServerAddress.sameServer(server.absoluteString, backend.server) ? .yes : .no
    }

    public func makeBackend(_ target: BackendTarget, context: ProviderContext) throws -> any CardBackend {
        backend
    }
}
