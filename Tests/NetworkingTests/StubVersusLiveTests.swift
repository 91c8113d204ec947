import Foundation
import Networking
import Testing

/// A stubbed request and a live one travel the same pipeline: same result, hooks, events and
/// error text.
@Suite struct StubVersusLiveTests {
    /// What a person or a plugin can observe of one exchange.
    struct Observation: Equatable {
        var outcome: String
        var hooks: [String]
        var events: [String]
    }

    static func observe(
        _ provider: Provider<Endpoint>, _ target: Endpoint, plugin: RecordingPlugin, logger: LoggerPlugin
    ) async
        -> Observation
    {
        let outcome: String
        do {
            let response = try await provider.request(target)
            outcome = "\(response.statusCode) \(response.text)"
        } catch {
            outcome = "error \(error.statusCode.map(String.init) ?? "-"): \(error.description)"
        }
        let events = logger.recent().map { event in
            "\(event.kind) \(event.attempt) \(event.statusCode.map(String.init) ?? "-") \(event.tag ?? "-") \(event.url) \(event.bodyPreview ?? "-")"
        }
        return Observation(outcome: outcome, hooks: plugin.calls, events: events)
    }

    /// A stub that answers like the test server does.
    static let serverLookalike = StubTransport { request in
        let path = request.path
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
            return code >= 400
                ? .json(#"{"errorCode":"E\#(code)","message":"status \#(code)"}"#, statusCode: code)
                : .json(#"{"ok":true}"#, statusCode: code)
        }
        return .failure(NetworkError.invalidRequest("the lookalike does not know \(path)"))
    }

    @Test(arguments: [200, 201, 404, 401, 500])
    func sameObservationsForStatus(_ code: Int) async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                let target = Endpoint(port: port, .status(code))
                var observations: [Observation] = []
                for transport in [transport as any Transport, Self.serverLookalike] {
                    let plugin = RecordingPlugin("P")
                    let logger = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")))
                    let provider = Provider<Endpoint>(
                        transport: transport, plugins: [plugin, logger], interceptors: [RetryOnceInterceptor()])
                    observations.append(await Self.observe(provider, target, plugin: plugin, logger: logger))
                }
                #expect(observations[0] == observations[1])
                if code == 401 { #expect(observations[0].hooks.filter { $0.hasPrefix("willSend") }.count == 2) }
            }
        }
    }

    @Test func providerStubbingMatchesLiveToo() async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                let target = Endpoint(port: port, .status(404))
                let live = Provider<Endpoint>(transport: transport)
                let stubbed = Provider<Endpoint>(
                    transport: transport, stubBehavior: { _ in .immediate },
                    stubResponse: { target, _ in
                        .json(#"{"errorCode":"E404","message":"status 404"}"#, statusCode: 404)
                    })
                var descriptions: [String] = []
                for provider in [live, stubbed] {
                    do {
                        _ = try await provider.request(target)
                    } catch let error as NetworkError {
                        descriptions.append(error.description)
                        #expect(error.response?.headers["content-type"] == "application/json")
                    }
                }
                #expect(descriptions.count == 2)
                #expect(descriptions.first == descriptions.last)
            }
        }
    }
}
