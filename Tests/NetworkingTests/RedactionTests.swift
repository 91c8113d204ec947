import Foundation
import InMemoryLogging
import Logging
import Networking
import TestSupport
import Testing

/// A canary secret sent in headers, query and JSON body never shows up in any event, line,
/// detail, log entry or error description.
@Suite struct RedactionTests {
    static let canary = "CANARY-c4n4ry-7f3e9a1b"

    /// Everything a person could ever see from these events and errors.
    struct Exposure {
        var texts: [String] = []

        mutating func add(_ events: [NetworkEvent]) {
            let formatter = NetworkEventFormatter()
            for event in events {
                texts.append(String(describing: event))
                texts.append(String(reflecting: event))
                texts.append(formatter.line(event))
                texts.append(formatter.detail(event))
                texts += [
                    event.url, event.path, event.bodyPreview ?? "", event.errorDescription ?? "", event.tag ?? "",
                ]
                texts += event.headers.map { "\($0.name): \($0.value)" }
            }
        }

        mutating func add(_ error: any Error) {
            texts += [String(describing: error), (error as? any LocalizedError)?.errorDescription ?? ""]
            if case .transport(let failure) = error as? NetworkError { texts += [failure.url, failure.description] }
        }

        func leaks(_ secret: String) -> [String] { texts.filter { $0.contains(secret) } }
    }

    struct CanaryTarget: TargetType {
        var baseURL: URL
        var canary: String
        var fail = false
        var path: String { "/canary" }
        var method: HTTPMethod { .post }
        var headers: Headers {
            ["Cookie": "sid=\(canary)", "refreshToken": canary, "X-Api-Secret": canary, "Accept": "application/json"]
        }
        var body: RequestBody {
            var query: Parameters = ["token": .string(canary), "page": 1, "nested": ["password": .string(canary)]]
            if fail { query["fail"] = true }
            return .composite(
                .json(
                    [
                        "password": .string(canary), "profile": ["clientSecret": .string(canary), "name": "Ada"],
                        "items": [["accessToken": .string(canary)]], "note": "hello",
                    ] as Parameters),
                query: query)
        }
    }

    func makeLogger(handler: InMemoryLogHandler) -> LoggerPlugin {
        var swiftLogger = Logger(label: "redaction", factory: { _ in handler })
        swiftLogger.logLevel = .trace
        return LoggerPlugin(
            configuration: .init(bodyPreviewLimit: 100_000, tagExtractor: .jsonField("message", onlyFailures: false)),
            logger: swiftLogger)
    }

    @Test func canaryNeverAppearsAgainstALiveServer() async throws {
        try await TestServer.run { port, probe in
            try await LiveTransport.withTransport { transport in
                let handler = InMemoryLogHandler()
                let logger = makeLogger(handler: handler)
                let provider = Provider<CanaryTarget>(
                    transport: transport, plugins: [logger], interceptors: [AccessTokenInterceptor { Self.canary }])
                var exposure = Exposure()
                let base = URL(string: "http://127.0.0.1:\(port)")!

                // Success: the server echoes the canary in Set-Cookie, a token header and JSON fields.
                let response = try await provider.request(CanaryTarget(baseURL: base, canary: Self.canary))
                #expect(response.text.contains(Self.canary))  // the data itself is intact
                #expect(probe.requests.last?.header("authorization") == "Bearer \(Self.canary)")

                // Failure: 401 with the canary in the body; decode failure; connection refused.
                do {
                    _ = try await provider.request(CanaryTarget(baseURL: base, canary: Self.canary, fail: true))
                } catch { exposure.add(error) }
                do {
                    _ = try await provider.request(CanaryTarget(baseURL: base, canary: Self.canary), as: [Int].self)
                } catch { exposure.add(error) }
                let closed = URL(string: "http://127.0.0.1:\(try await LiveTransportTests.closedPort())")!
                do {
                    _ = try await provider.request(CanaryTarget(baseURL: closed, canary: Self.canary))
                } catch { exposure.add(error) }

                exposure.add(logger.recent())
                exposure.texts += handler.entries.map { "\($0.message) \($0.metadata)" }
                let kinds = Set(logger.recent().map(\.kind))
                #expect(kinds == [.created, .sent, .received, .failed])
                #expect(exposure.leaks(Self.canary) == [])
                #expect(exposure.texts.contains { $0.contains("<private>") })
                // Redacted, not dropped: names stay visible.
                let sent = try #require(logger.recent().first { $0.kind == .sent })
                #expect(sent.headers["refreshToken"] == "<private>")
                #expect(sent.headers["Authorization"] == "<private>")
                #expect(sent.headers["Cookie"] == "<private>")
                #expect(sent.headers["Accept"] == "application/json")
                #expect(sent.url.contains("token=<private>") && sent.url.contains("page=1"))
                #expect(sent.url.contains("nested%5Bpassword%5D=<private>"))
                #expect(sent.bodyPreview?.contains(#""name":"Ada""#) == true)
                #expect(sent.bodyPreview?.contains(#""note":"hello""#) == true)
                let received = try #require(logger.recent().first { $0.kind == .received })
                #expect(received.headers.values(for: "set-cookie") == ["<private>"])
                #expect(received.tag == "token <private> accepted")
            }
        }
    }

    @Test func canaryNeverAppearsWithStubsRetriesAndTimeouts() async throws {
        let handler = InMemoryLogHandler()
        let logger = makeLogger(handler: handler)
        let clock = TestClock()
        let stub = StubTransport { request in
            if request.attempt == 1 {
                return .json(
                    #"{"error":"bad token \#(Self.canary)","refreshToken":"\#(Self.canary)"}"#, statusCode: 401)
            }
            return .networkFailure(.timedOut, reason: "no answer")
        }
        let provider = Provider<CanaryTarget>(
            transport: stub, plugins: [logger],
            interceptors: [AccessTokenInterceptor { Self.canary }, RetryFirstFailure()],
            clock: clock)
        var exposure = Exposure()
        do {
            _ = try await provider.request(CanaryTarget(baseURL: URL(string: "http://h.invalid")!, canary: Self.canary))
        } catch { exposure.add(error) }
        exposure.add(logger.recent())
        exposure.texts += handler.entries.map { "\($0.message) \($0.metadata)" }
        #expect(logger.recent().map(\.kind) == [.created, .sent, .received, .retrying, .sent, .failed])
        #expect(exposure.leaks(Self.canary) == [])
    }

    @Test func errorDescriptionsHideQuerySecrets() {
        let request = Request(
            method: .get, url: URL(string: "http://u:\(Self.canary)@h:1/p?access_token=\(Self.canary)&a=1")!)
        let error = NetworkError.transport(
            TransportFailure(kind: .timedOut, request: request, reason: "slow", underlying: nil))
        #expect(!error.description.contains(Self.canary))
        #expect(error.description.contains("access_token=<private>&a=1"))
    }

    @Test func redactionRules() {
        let redaction = Redaction.default
        for name in [
            "Authorization", "cookie", "SET-COOKIE", "refreshToken", "X-Api-Token", "x-client-secret", "Password",
        ] {
            #expect(redaction.isSensitive(headerName: name), "\(name)")
        }
        for name in ["Accept", "Content-Type", "X-Trace", "Authorisation-Hint"] {
            #expect(!redaction.isSensitive(headerName: name), "\(name)")
        }
        #expect(!redaction.isSensitive(name: "authorization"))  // header names only
        #expect(redaction.isSensitive(name: "new_PASSWORD"))
        let custom = Redaction(sensitiveNameFragments: ["pin"], sensitiveHeaderNames: ["X-Key"])
        #expect(custom.isSensitive(headerName: "x-key") && custom.isSensitive(name: "cardPin"))
        #expect(!custom.isSensitive(name: "token"))
        #expect(!Redaction.disabled.isSensitive(headerName: "Authorization"))
        let url = URL(string: "http://h/p?Token=1&x=%74oken&%74oken=2#frag")!
        #expect(redaction.redact(url: url) == "http://h/p?Token=<private>&x=%74oken&%74oken=<private>#frag")
    }

    @Test func jsonRedactionIsRecursiveAndKeepsStructure() async throws {
        let logger = LoggerPlugin()
        let body =
            #"{"a":{"b":[{"myToken":{"deep":[1,2,"x"]}},{"ok":"yes"}]},"secretNumber":42,"pass\u0077ord":"p4ssw0rd-value","n":null}"#
        let provider = Provider<AdHoc>.stubbed(.immediate, plugins: [logger], stubResponse: { _, _ in .json(body) })
        _ = try await provider.request(AdHoc(method: .get))
        let preview = try #require(logger.recent().last?.bodyPreview)
        #expect(
            preview
                == #"{"a":{"b":[{"myToken":"<private>"},{"ok":"yes"}]},"secretNumber":"<private>","pass\u0077ord":"<private>","n":null}"#
        )
    }

    @Test func truncatedJSONStillRedacts() async throws {
        let logger = LoggerPlugin(configuration: .init(bodyPreviewLimit: 30))
        let body =
            #"{"padding":"xxxxxxxxxx","token":"\#(Self.canary)","more":"\#(String(repeating: "y", count: 100))"}"#
        let provider = Provider<AdHoc>.stubbed(.immediate, plugins: [logger], stubResponse: { _, _ in .json(body) })
        _ = try await provider.request(AdHoc(method: .get))
        let preview = try #require(logger.recent().last?.bodyPreview)
        #expect(!preview.contains("CANARY"))
        #expect(preview.hasPrefix(#"{"padding":"xxxxxxxxxx","token"#))
    }

    @Test func formBodiesAreRedactedByName() async throws {
        let logger = LoggerPlugin()
        let target = AdHoc(
            body: .parameters(["user": "ada", "password": .string(Self.canary)], encoding: .formURLEncoded))
        _ = try await Provider<AdHoc>.stubbed(.immediate, plugins: [logger]).request(target)
        let preview = try #require(logger.recent().first?.bodyPreview)
        #expect(preview == "password=<private>&user=ada")
    }

    @Test func disabledRedactionShowsEverything() async throws {
        let logger = LoggerPlugin(configuration: .init(redaction: .disabled))
        let target = AdHoc(method: .get, headers: ["Authorization": "Bearer visible"])
        _ = try await Provider<AdHoc>.stubbed(.immediate, plugins: [logger]).request(target)
        #expect(logger.recent().first?.headers["Authorization"] == "Bearer visible")
    }
}
