import AsyncHTTPClient
import CardAPI
import CardModels
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Networking

/// One way of sending `GET /card/{id}` and decoding the card: the raw baseline, each layer of
/// the stack on its own, and the whole client as the TUI builds it.
struct FetchVariant: Sendable {
    /// How the tables name it.
    let label: String
    /// Fetches and decodes one card.
    let fetch: @Sendable (String) async throws -> Card
    /// Run at the end of a timed block of that many requests: finishes the work the block's
    /// requests left behind (the log pane's lines), so each variant is charged for its own.
    var settle: @Sendable (Int) async -> Void = { _ in }

    /// The baseline: AsyncHTTPClient's `execute`, the body collected, `SuccessEnvelope<Card>`
    /// decoded with the contract's decoder. Nothing else.
    static func raw(client: HTTPClient, server: URL, token: String) -> FetchVariant {
        let base = server.absoluteString
        let decoder = CardWalletJSON.decoder()
        return FetchVariant(label: "raw AsyncHTTPClient + JSONDecoder (baseline)") { id in
            var request = HTTPClientRequest(url: base + "/card/" + id)
            request.headers.add(name: "Accept", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer " + token)
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 32 << 20)
            guard response.status == .ok else { throw BenchError("GET /card/\(id) answered \(response.status.code)") }
            return try decoder.decode(SuccessEnvelope<APICard>.self, from: body).data.card
        }
    }

    /// `LiveTransport.send` with a hand-made `Request`, decoded as the baseline decodes.
    static func transport(_ transport: LiveTransport, server: URL, token: String) -> FetchVariant {
        let decoder = CardWalletJSON.decoder()
        let base = server.absoluteString
        return FetchVariant(label: "LiveTransport + JSONDecoder") { id in
            guard let url = URL(string: base + "/card/" + id) else { throw BenchError("bad card URL for \(id)") }
            let request = Request(
                method: .get, url: url, headers: ["Accept": "application/json", "Authorization": "Bearer " + token])
            let response = try await transport.send(request)
            guard response.statusCode == 200 else {
                throw BenchError("GET /card/\(id) answered \(response.statusCode)")
            }
            return try decoder.decode(SuccessEnvelope<APICard>.self, from: response.body).data.card
        }
    }

    /// A `Provider` on the transport, without plugins or interceptors (the token is in the target).
    /// By default it admits the transport's 8 requests at once, as every provider does; with
    /// `unlimited`, its admission lets every request through, so requests beyond the 8
    /// connections wait in AsyncHTTPClient's pool instead (the behaviour before issue 14).
    static func provider(_ transport: LiveTransport, server: URL, token: String, unlimited: Bool = false)
        -> FetchVariant
    {
        let provider = Provider<FixedTokenCardTarget>(
            transport: transport, admission: unlimited ? Admission(limit: nil) : nil)
        let decoder = CardWalletJSON.decoder()
        let label =
            unlimited
            ? "Provider, admission without a limit (waits in the pool)" : "Provider + LiveTransport + JSONDecoder"
        return FetchVariant(label: label) { id in
            let response = try await provider.request(FixedTokenCardTarget(server: server, id: id, token: token))
            return try decoder.decode(SuccessEnvelope<APICard>.self, from: response.body).data.card
        }
    }

    /// `CardAPIClient.card(id:)`: provider, session interceptor, response judge; `label` says
    /// which plugins it has.
    static func client(_ client: CardAPIClient, label: String) -> FetchVariant {
        FetchVariant(label: label) { id in try await client.card(id: id) }
    }

    /// The client of `app`, each block settling its logger plugin and log pane.
    static func app(_ app: AppClient, label: String) -> FetchVariant {
        let client = app.client
        return FetchVariant(
            label: label,
            fetch: { id in
                let card = try await client.card(id: id)
                app.completed()  // the call's outcome into the inbox, as the runner sends it
                return card
            }, settle: { await app.settle(after: $0) })
    }
}

/// `GET /card/{id}` with a fixed bearer token, for the provider without interceptors.
struct FixedTokenCardTarget: TargetType {
    let server: URL
    let id: String
    let token: String

    var baseURL: URL { server }
    var path: String { "/card/\(id)" }
    var method: Networking.HTTPMethod { .get }
    var body: RequestBody { .plain }
    var headers: Headers { ["Accept": "application/json", "Authorization": "Bearer \(token)"] }
}
