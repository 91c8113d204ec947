import Foundation
import Networking
import Testing

/// `HTTPMethod` is an open set, and `TargetType`'s defaults are the documented ones.
@Suite struct CoreTypesTests {
    /// A target that states only what it must.
    struct Minimal: TargetType {
        var baseURL = URL(string: "http://stub.invalid")!
        var path = "/thing"
        var method: HTTPMethod = .get
        var body: RequestBody = .plain
    }

    @Test func targetDefaultsAreNoHeadersEmptySampleData2xxAndBearer() async throws {
        let target = Minimal()
        #expect(target.headers.isEmpty)
        #expect(target.sampleData.isEmpty)
        #expect(target.validation == .successCodes)
        #expect(target.timeout == nil)
        #expect(target.authorizationType == .bearer)

        // The defaults at work: a stub from sampleData answers 200 with an empty body, a 404 fails.
        let stubbed = Provider<Minimal>.stubbed(.immediate)
        let response = try await stubbed.request(target)
        #expect(response.statusCode == 200 && response.body.isEmpty)
        let notFound = Provider<Minimal>(transport: StubTransport(StubResponse(statusCode: 404)))
        await #expect { _ = try await notFound.request(target) } throws: { ($0 as? NetworkError)?.statusCode == 404 }
    }

    @Test func methodsAreAnOpenSetOfCaseSensitiveTokens() async throws {
        let standard: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, .connect]
        #expect(
            standard.map(\.rawValue) == [
                "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
            ])
        let custom: HTTPMethod = "PROPFIND"
        #expect(custom == HTTPMethod(rawValue: "PROPFIND"))
        #expect(custom.description == "PROPFIND")
        #expect(HTTPMethod(rawValue: "get") != .get)

        let stub = StubTransport(StubResponse())
        _ = try await Provider<Minimal>(transport: stub).request(Minimal(method: custom))
        #expect(stub.requests.map(\.method) == [custom])
    }
}
