import CardModels
import Hummingbird
import Logging

/// The outermost middleware: adds the injected latency, turns every error into the contract's
/// envelope, counts the request in the statistics and writes one structured log line.
///
/// The log line carries method, path (never the query), status, error code, duration and
/// client address — never headers or bodies, so no token or password can reach the log. At
/// the `debug` level a line also marks each request's arrival.
struct EnvelopeMiddleware: RouterMiddleware {
    typealias Context = MockServerRequestContext

    let routes: RouteTable
    let statistics: StatisticsRecorder
    let latency: Duration

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        context.logger.debug(
            "request received",
            metadata: ["method": "\(request.method.rawValue)", "path": "\(Self.loggablePath(request.uri.path))"])
        if latency > .zero { try? await Task.sleep(for: latency) }
        var response: Response
        var errorCode: ErrorCode?
        do {
            response = try await next(request, context)
        } catch {
            let apiError = apiError(for: error, request: request, context: context)
            errorCode = apiError.code
            response = apiError.response()
        }
        let route = routeKey(request: request, context: context)
        statistics.record(route: route, status: response.status.code)
        let elapsed = ContinuousClock.now - start
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "path": "\(Self.loggablePath(request.uri.path))",
            "route": "\(route)",
            "status": "\(response.status.code)",
            "durationMs":
                "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            "client": "\(context.clientAddress)",
        ]
        if let errorCode { metadata["errorCode"] = "\(errorCode.rawValue)" }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// The statistics key: `GET /card/{cardId}`, or ``RequestStatistics/unmatchedRoute``.
    private func routeKey(request: Request, context: Context) -> String {
        guard let path = context.endpointPath, path.hasPrefix(RouteTable.basePath) else {
            return RequestStatistics.unmatchedRoute
        }
        return "\(request.method.rawValue) \(path.dropFirst(RouteTable.basePath.count))"
    }

    /// Maps any error to an envelope error; unexpected ones become E99 and are logged.
    private func apiError(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError where error.status == .notFound:
            let allowed = routes.methods(forPath: request.uri.path)
            guard !allowed.isEmpty else {
                return .badRequest(status: .notFound, "There is no such endpoint. See docs/API.md for the routes.")
            }
            let names = allowed.map(\.rawValue)
            var apiError = APIError.badRequest(
                status: .methodNotAllowed,
                "\(request.method.rawValue) is not allowed here; use \(names.joined(separator: " or ")).")
            apiError.headers[.allow] = names.joined(separator: ", ")
            return apiError
        case let error as any HTTPResponseError:
            return Self.mapStatus(error.status)
        default:
            context.logger.error("Unexpected error", metadata: ["errorType": "\(type(of: error))"])
            return .internalError("Something went wrong on the server.")
        }
    }

    private static func mapStatus(_ status: HTTPResponse.Status) -> APIError {
        switch status.code {
        case 413: .payloadTooLarge("The request body is too large.")
        case 415: .unsupportedMediaType("The content type is not supported here.")
        case 400..<500: .badRequest(status: status, "The request is not valid (\(status.code)).")
        default: .internalError("Something went wrong on the server.")
        }
    }

    /// The path with anything unprintable replaced, and cut short.
    static func loggablePath(_ path: String) -> String {
        let clean = String(path.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
    }
}
