import CardModels
import HTTPTypes
import Hummingbird

/// `POST /auth/login`, `POST /auth/refresh`, `POST /auth/logout`.
struct AuthRoutes {
    typealias Context = MockServerRequestContext

    let state: ServerState
    let limits: MockServerConfiguration.Limits

    /// Token responses must never be cached (RFC 6749 §5.1).
    static let noStore: HTTPFields = [.cacheControl: "no-store", HTTPField.Name("Pragma")!: "no-cache"]

    var routes: [RouteSpec] {
        [
            RouteSpec(.post, "auth/login", login),
            RouteSpec(.post, "auth/refresh", refresh),
            RouteSpec(.post, "auth/logout", logout),
        ]
    }

    @Sendable func login(_ request: Request, context: Context) async throws -> Response {
        let body = try await RequestReading.decodeJSON(LoginRequest.self, from: request, limit: limits.maxJSONBytes)
        let grant = try await state.login(email: body.email, password: body.password, client: context.clientAddress)
        return JSONResponse.success(grant, message: "Logged in", headers: Self.noStore)
    }

    @Sendable func refresh(_ request: Request, context: Context) async throws -> Response {
        guard let header = request.headers[.refreshToken] else {
            throw APIError.badRequest(
                "Send the refresh token in the refreshToken header as “Bearer <token>”.",
                fields: [CardWalletHeader.refreshToken: "is required"])
        }
        guard let token = RequestReading.bearerToken(header) else {
            throw APIError.refreshRejected("The refreshToken header must be “Bearer <token>”. Log in again.")
        }
        let grant = try await state.refresh(token: token, client: context.clientAddress)
        return JSONResponse.success(grant, message: "Tokens refreshed", headers: Self.noStore)
    }

    @Sendable func logout(_ request: Request, context: Context) async throws -> Response {
        let access = RequestReading.bearerToken(request.headers[.authorization])
        let refresh = RequestReading.bearerToken(request.headers[.refreshToken])
        guard access != nil || refresh != nil else {
            throw APIError.accessTokenInvalid(
                "Send the access token (Authorization: Bearer …) or the refresh token (refreshToken: Bearer …).")
        }
        try await state.logout(accessToken: access, refreshToken: refresh)
        return JSONResponse.success(EmptyPayload(), message: "Logged out", headers: Self.noStore)
    }
}
