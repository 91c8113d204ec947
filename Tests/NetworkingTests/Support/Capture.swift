import Foundation
import Networking
import Testing

/// The request a provider would send for `target`, captured by a stub transport.
func sentRequest(for target: some TargetType, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Request
{
    let stub = StubTransport(StubResponse())
    _ = try await Provider(transport: stub).request(target)
    return try #require(stub.requests.last, sourceLocation: sourceLocation)
}

/// A target built from its parts, for encoding tests.
struct AdHoc: TargetType {
    var baseURL = URL(string: "https://api.example.com/v1")!
    var path = "/cards"
    var method: HTTPMethod = .post
    var body: RequestBody = .plain
    var headers: Headers = Headers()
}

extension Data {
    var text: String { String(decoding: self, as: UTF8.self) }
}
