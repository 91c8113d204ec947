import Hummingbird

/// Fault injection for card routes: with `--fail-rate R`, that share of requests answers 503.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = MockServerRequestContext

    let failRate: Double

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if failRate > 0, Double.random(in: 0..<1) < failRate { throw APIError.injectedFailure }
        return try await next(request, context)
    }
}

/// Requires a valid access token (`Authorization: Bearer …`) and puts its user in the context.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = MockServerRequestContext

    let state: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIError.accessTokenInvalid("Send the access token as Authorization: Bearer <token>.")
        }
        guard let token = RequestReading.bearerToken(header) else {
            throw APIError.accessTokenInvalid("The Authorization header must be “Bearer <token>”.")
        }
        var context = context
        context.userID = try await state.authenticate(accessToken: token)
        return try await next(request, context)
    }
}
