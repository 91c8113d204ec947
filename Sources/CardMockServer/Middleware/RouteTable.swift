import Hummingbird

/// One route: method, path pattern (after `/v1`, parameters as `{name}`) and handler.
struct RouteSpec: Sendable {
    typealias Handler = @Sendable (Request, MockServerRequestContext) async throws -> Response

    var method: HTTPRequest.Method
    var pattern: String
    var handler: Handler

    init(_ method: HTTPRequest.Method, _ pattern: String, _ handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
    }

    /// The pattern in Hummingbird's syntax: `card/:cardId`.
    var routerPath: RouterPath {
        RouterPath(
            pattern.split(separator: "/").map { segment in
                segment.hasPrefix("{") ? ":" + segment.dropFirst().dropLast() : segment
            }.joined(separator: "/"))
    }
}

/// The routes the server answers, to tell an unknown path (404) from a wrong method (405).
struct RouteTable: Sendable {
    struct Entry: Sendable {
        var method: HTTPRequest.Method
        /// Path segments after `/v1`; `{…}` matches any one segment.
        var segments: [String]
    }

    static let basePath = "/v1"

    private(set) var entries: [Entry] = []

    init(_ routes: [RouteSpec]) {
        for route in routes { add(route.method, route.pattern) }
    }

    mutating func add(_ method: HTTPRequest.Method, _ pattern: String) {
        entries.append(Entry(method: method, segments: pattern.split(separator: "/").map(String.init)))
    }

    /// The methods allowed on `path` (a full request path such as `/v1/card/abc`).
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard segments.first == String(Self.basePath.dropFirst()) else { return [] }
        segments.removeFirst()
        return entries.filter { entry in
            entry.segments.count == segments.count
                && zip(entry.segments, segments).allSatisfy { pattern, segment in
                    pattern.hasPrefix("{") || pattern == segment
                }
        }.map(\.method)
    }
}
