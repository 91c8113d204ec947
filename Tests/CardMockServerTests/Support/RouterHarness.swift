import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

/// A small client over `app.test(.router)` that speaks the contract.
struct API: Sendable {
    let client: any TestClientProtocol

    /// Sends a request; `path` is below `/v1` (e.g. `/cards?limit=5`).
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.executeRequest(uri: "/v1" + path, method: method, headers: headers, body: body)
    }

    /// Sends `value` as JSON.
    func sendJSON(
        _ method: HTTPRequest.Method, _ path: String, _ value: some Encodable, token: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        let data = try CardWalletJSON.encoder().encode(value)
        return try await send(method, path, token: token, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// Sends raw bytes with a content type.
    func sendRaw(
        _ method: HTTPRequest.Method, _ path: String, _ text: String, contentType: String? = "application/json",
        token: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        return try await send(method, path, token: token, headers: headers, body: ByteBuffer(string: text))
    }

    /// Logs in and returns the grant; fails the test when the login fails.
    func login(
        _ email: String = Seeds.demoEmail, _ password: String = Seeds.demoPassword,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TokenGrant {
        let response = try await sendJSON(.post, "/auth/login", LoginRequest(email: email, password: password))
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        return try response.data(TokenGrant.self)
    }

    /// Refreshes with `refreshToken`.
    func refresh(_ refreshToken: String) async throws -> TestResponse {
        try await send(.post, "/auth/refresh", headers: [.refreshTokenHeader: "Bearer \(refreshToken)"])
    }

    /// A multipart `POST /card`.
    func createCard(_ form: MultipartForm, token: String) async throws -> TestResponse {
        try await send(
            .post, "/card", token: token, headers: [.contentType: form.contentType], body: ByteBuffer(bytes: form.body))
    }
}

extension HTTPField.Name {
    static let refreshTokenHeader = HTTPField.Name(CardWalletHeader.refreshToken)!
}

extension TestResponse {
    /// The `data` of a success envelope.
    func data<T: Codable & Sendable>(_ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        let envelope = try CardWalletJSON.decoder().decode(SuccessEnvelope<T>.self, from: Data(buffer: body))
        #expect(envelope.success, sourceLocation: sourceLocation)
        #expect(envelope.status == Int(status.code), sourceLocation: sourceLocation)
        return envelope.data
    }

    /// The error envelope.
    func failure() throws -> ErrorEnvelope {
        try CardWalletJSON.decoder().decode(ErrorEnvelope.self, from: Data(buffer: body))
    }

    var text: String { String(buffer: body) }
}

/// Expects an error envelope with `code` and `status` (the contract's status by default).
@discardableResult
func expectError(
    _ response: TestResponse, _ code: ErrorCode, status: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ErrorEnvelope {
    let expectedStatus = status ?? code.httpStatus ?? 500
    #expect(Int(response.status.code) == expectedStatus, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    let envelope = try response.failure()
    #expect(envelope.errorCode == code, "message: \(envelope.message)", sourceLocation: sourceLocation)
    #expect(envelope.status == expectedStatus, sourceLocation: sourceLocation)
    #expect(!envelope.success, sourceLocation: sourceLocation)
    if expectedStatus == 401 {
        #expect(response.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#, sourceLocation: sourceLocation)
    }
    return envelope
}

/// Builds the app with `configuration` and a manual clock, and runs `body` against its router.
func withRouter(
    _ configuration: MockServerConfiguration = .testing, clock: ManualWallClock = ManualWallClock(),
    _ body: @escaping @Sendable (API, MockServerControls) async throws -> Void
) async throws {
    let app = try await MockServer.makeApp(configuration: configuration, clock: clock)
    try await app.application.test(.router) { client in
        try await body(API(client: client), app.controls)
    }
}

/// Facts about the seed data the tests rely on.
enum Seeds {
    static let demoEmail = "demo@cardwallet.dev"
    static let demoPassword = "demo1234"
    static let minjiEmail = "minji@cardwallet.dev"
    static let minjiPassword = "minji1234"
    static let demoCardCount = 12
    static let minjiCardCount = 3
    /// A demo card with a PNG image.
    static let demoCardWithImage = "demo-01"
    /// A demo card without an image.
    static let demoCardWithoutImage = "demo-10"
    static let minjiCard = "minji-01"
}
