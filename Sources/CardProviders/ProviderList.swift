public import CardBackend
import CardModels
public import Foundation

/// The providers a program registered, in one list: the composition root's.
extension [any BackendProvider] {
    /// The provider of the kind a record names (its ``CardBackend/BackendKind/id``).
    public func provider(forKind id: String) -> (any BackendProvider)? {
        first { $0.kind.id.lowercased() == id.lowercased() }
    }

    /// The kinds, as `--kind` takes them: `cardAPI, cardDAV`.
    public var kindList: String { map(\.kind.id).joined(separator: ", ") }

    /// The provider whose kind of server answers at `server`, asked once, every provider at once
    /// within the context's probe deadline: the first to say yes (by ``BackendProvider/probeRank``,
    /// then list order), else the first that may take it.
    ///
    /// - Throws: the unreachable answer's failure when no provider heard from the server, or
    ///   ``KindNotFound`` when it answered as none of them.
    public func detect(_ server: URL, context: ProviderContext) async throws -> any BackendProvider {
        let ranked = enumerated().sorted { ($0.element.probeRank, $0.offset) < ($1.element.probeRank, $1.offset) }
        let answers = await withTaskGroup(of: (Int, ProbeAnswer).self) { group in
            for (index, provider) in ranked.map({ $0.element }).enumerated() {
                group.addTask { (index, await provider.probe(server, context: context)) }
            }
            var answers: [Int: ProbeAnswer] = [:]
            for await (index, answer) in group { answers[index] = answer }
            return answers
        }
        let providers = ranked.map(\.element)
        let ordered = providers.indices.map { (providers[$0], answers[$0] ?? .no) }
        if let yes = ordered.first(where: { if case .yes = $0.1 { true } else { false } }) { return yes.0 }
        if let maybe = ordered.first(where: { if case .maybe = $0.1 { true } else { false } }) { return maybe.0 }
        for (_, answer) in ordered {
            if case .unreachable(let failure) = answer { throw failure }
        }
        throw KindNotFound(server: server.absoluteString, kinds: map(\.kind))
    }
}

/// The address answered, but as no kind of server the wallet knows.
public struct KindNotFound: BackendFailure {
    /// The address.
    public var server: String
    /// The kinds asked.
    public var kinds: [BackendKind]

    public var failureKind: BackendFailureKind { .wrongAddress }

    public var description: String {
        "\(TerminalText.escaped(server)) answers, but not as a \(kinds.map(\.name).joined(separator: " or ")) server."
    }
}
