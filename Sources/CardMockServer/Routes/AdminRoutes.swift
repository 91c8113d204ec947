import CardModels
import Hummingbird

/// `--admin` only: `POST /_admin/expire`, `POST /_admin/revoke`, `GET /_admin/stats`.
struct AdminRoutes {
    typealias Context = MockServerRequestContext

    let state: ServerState
    let statistics: StatisticsRecorder

    /// `data` of `POST /_admin/expire`.
    struct ExpireResult: Codable, Sendable {
        var email: String
        var expiredAccessTokens: Int
    }

    /// `data` of `POST /_admin/revoke`.
    struct RevokeResult: Codable, Sendable {
        var email: String
        var revokedRefreshTokens: Int
    }

    var routes: [RouteSpec] {
        [
            RouteSpec(.post, "_admin/expire", expire),
            RouteSpec(.post, "_admin/revoke", revoke),
            RouteSpec(.get, "_admin/stats", stats),
        ]
    }

    @Sendable func expire(_ request: Request, context: Context) async throws -> Response {
        let email = try Self.email(request)
        guard let count = try await state.expireAccessTokens(email: email) else { throw Self.noSuchUser }
        return JSONResponse.success(
            ExpireResult(email: email, expiredAccessTokens: count), message: "Access tokens expired")
    }

    @Sendable func revoke(_ request: Request, context: Context) async throws -> Response {
        let email = try Self.email(request)
        guard let count = try await state.revokeRefreshTokens(email: email) else { throw Self.noSuchUser }
        return JSONResponse.success(
            RevokeResult(email: email, revokedRefreshTokens: count), message: "Refresh tokens revoked")
    }

    @Sendable func stats(_ request: Request, context: Context) async throws -> Response {
        JSONResponse.success(statistics.snapshot)
    }

    /// 404 E01: the user, like an unknown path, is not there.
    private static let noSuchUser = APIError.badRequest(
        status: .notFound, "There is no user with that email.", fields: ["email": "is not a user"])

    private static func email(_ request: Request) throws(APIError) -> String {
        guard let email = request.uri.queryParameters["email"].map(String.init), !email.isEmpty else {
            throw .badRequest("Name the user: ?email=…", fields: ["email": "is required"])
        }
        guard email.count <= 254 else { throw noSuchUser }
        return email
    }
}
