import Foundation
import Networking
import TestSupport
import Testing

/// Moya-style stubbing: never, immediately, after a delay; sample data or a closure; and the
/// same pipeline as live requests.
@Suite struct StubbingTests {
    @Test func immediateStubAnswersWithSampleDataThroughValidation() async throws {
        let provider = Provider<Endpoint>.stubbed(.immediate)
        let response = try await provider.request(Endpoint(TestAPI.status(200)))
        #expect(response.text == #"{"ok":true}"#)
        // Validation applies to stubs too: a 200 sample is fine, a closure's 404 is not.
        let failing = Provider<Endpoint>.stubbed(
            .immediate,
            stubResponse: { target, _ in
                StubResponse(statusCode: 404, body: target.sampleData)
            })
        await #expect {
            _ = try await failing.request(Endpoint(TestAPI.status(404)))
        } throws: { ($0 as? NetworkError)?.statusCode == 404 }
    }

    @Test func delayedStubWaitsOnTheInjectedClock() async throws {
        let clock = TestClock()
        let provider = Provider<Endpoint>.stubbed(.delayed(.seconds(5)), clock: clock)
        let call = Task { try await provider.request(Endpoint(TestAPI.status(200))) }
        try await waitUntil("the stub to sleep") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(5))
        #expect(try await call.value.statusCode == 200)
        #expect(clock.sleepRequests == [.seconds(5)])
    }

    @Test func delayedStubIsCancellable() async throws {
        let clock = TestClock()
        let provider = Provider<Endpoint>.stubbed(.delayed(.seconds(5)), clock: clock)
        let call = Task { try await provider.request(Endpoint(TestAPI.status(200))) }
        try await waitUntil("the stub to sleep") { clock.sleeperCount == 1 }
        call.cancel()
        await #expect { _ = try await call.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
    }

    @Test func neverUsesTheTransportAndPerTargetBehaviourMixes() async throws {
        let live = StubTransport(.json(#"{"from":"transport"}"#))
        let provider = Provider<Endpoint>(
            transport: live,
            stubBehavior: { target in if case .status = target.target { .immediate } else { .never } })
        #expect(try await provider.request(Endpoint(TestAPI.status(200))).text == #"{"ok":true}"#)
        #expect(try await provider.request(Endpoint(TestAPI.headers)).text == #"{"from":"transport"}"#)
        #expect(live.requests.map(\.path) == ["/headers"])
    }

    @Test func stubNetworkErrorsLookLikeLiveOnes() async throws {
        let provider = Provider<Endpoint>.stubbed(
            .immediate,
            stubResponse: { _, _ in
                .networkFailure(.cannotConnect, reason: "connection refused")
            })
        await #expect {
            _ = try await provider.request(Endpoint(base: URL(string: "http://127.0.0.1:8080")!, TestAPI.headers))
        } throws: { error in
            "\(error)" == "Could not connect to 127.0.0.1:8080: connection refused. Is the server running?"
        }
    }

    @Test func stubbedRequestsRunPluginsAndInterceptors() async throws {
        let log = SharedLog()
        let provider = Provider<Endpoint>.stubbed(
            .immediate, plugins: [RecordingPlugin("P", shared: log)], interceptors: [RetryOnceInterceptor(log: log)],
            stubResponse: { _, request in
                request.headers["Authorization"] == "Bearer fresh" ? .json("{}") : .json("{}", statusCode: 401)
            })
        let response = try await provider.request(Endpoint(TestAPI.headers))
        #expect(response.request.headers["Authorization"] == "Bearer fresh")
        #expect(log.all.filter { $0.hasPrefix("P.didReceive") } == ["P.didReceive#1:401", "P.didReceive#2:200"])
    }

    @Test func stubTransportRecordsAndCanBeCleared() async throws {
        let stub = StubTransport(StubResponse(statusCode: 201, headers: ["ETag": "\"v2\""], body: Data("x".utf8)))
        let response = try await Provider<Endpoint>(transport: stub).request(Endpoint(TestAPI.headers))
        #expect(response.statusCode == 201)
        #expect(response.headers["etag"] == "\"v2\"")
        #expect(stub.requests.count == 1)
        stub.clearRequests()
        #expect(stub.requests.isEmpty)
    }

    @Test func stubDownloadWritesTheFile() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let destination = DownloadDestination(folder.url("out.bin"))
        let stub = StubTransport(StubResponse(body: Data("file body".utf8)))
        let response = try await Provider<Endpoint>(transport: stub).request(Endpoint(TestAPI.download(9, destination)))
        #expect(response.download == DownloadedFile(url: destination.url, byteCount: 9))
        #expect(try Data(contentsOf: destination.url) == Data("file body".utf8))
    }
}

/// Odds and ends a caller relies on.
@Suite struct ProviderEdgeTests {
    @Test func failedDownloadLeavesNoFileAndKeepsTheBody() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let destination = DownloadDestination(folder.url("never.bin"))
        let stub = StubTransport(.json(#"{"errorCode":"E05"}"#, statusCode: 404))
        await #expect {
            _ = try await Provider<Endpoint>(transport: stub).request(Endpoint(TestAPI.download(1, destination)))
        } throws: { error in
            (error as? NetworkError)?.response?.text == #"{"errorCode":"E05"}"#
        }
        #expect(!FileManager.default.fileExists(atPath: destination.url.path))
    }

    @Test func cancellingDuringARetryDelayStops() async throws {
        let clock = TestClock()
        let stub = StubTransport(.json("{}", statusCode: 401))
        let provider = Provider<Endpoint>(
            transport: stub, interceptors: [RetryOnceInterceptor(delay: .seconds(60))], clock: clock)
        let call = Task { try await provider.request(Endpoint(TestAPI.status(200))) }
        try await waitUntil("the retry delay") { clock.sleeperCount == 1 }
        call.cancel()
        await #expect { _ = try await call.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
        #expect(stub.requests.count == 1)
    }

    @Test func descriptionsNeverPrintSecrets() {
        let secret = "s3cr3t-t0ken-value"
        var request = Request(method: .post, url: URL(string: "http://h/p?token=\(secret)&q=1")!)
        request.headers["Authorization"] = "Bearer \(secret)"
        request.headers["refreshToken"] = secret
        request.body = .data(Data("{\"password\":\"\(secret)\"}".utf8))
        for text in [
            request.description, request.headers.description, request.body.description, String(describing: request),
        ] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(request.description == "POST http://h/p?token=<private>&q=1 (33 B body)")
        #expect(request.headers.description == "Authorization: <private>; refreshToken: <private>")
    }

    @Test func headersReplaceAddAndCompareCaseInsensitively() {
        var headers: Headers = ["Accept": "a", "X-Many": "1"]
        headers.add("2", for: "x-many")
        #expect(headers.values(for: "X-MANY") == ["1", "2"])
        headers["x-many"] = "3"
        #expect(headers.values(for: "X-Many") == ["3"])
        headers["Accept"] = nil
        #expect(!headers.contains("accept"))
        #expect(headers == ["x-many": "3"])
        let merged = Headers([("A", "1"), ("B", "2")]).merging(["b": "3"])
        #expect(merged.values(for: "B") == ["3"])
        #expect(merged.count == 2)
    }
}
