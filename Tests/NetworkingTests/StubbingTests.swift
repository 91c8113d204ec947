import Foundation
import Networking
import Testing

/// Moya-style stubbing: never, immediately, after a delay; sample data or a closure; and the
/// same pipeline as live requests.
@Suite struct StubbingTests {
    @Test func immediateStubAnswersWithSampleDataThroughValidation() async throws {
        let provider = Provider<Endpoint>.stubbed(.immediate)
        let response = try await provider.request(Endpoint(TestAPI.status(200)))
        #expect(response.text == #"{"ok":true}"#)
        // Validation applies to stubs too: a 200 sample is fine, a closure's 404 is not.
        let failing = Provider<Endpoint>.stubbed(.immediate, stubResponse: { target, _ in
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
        let provider = Provider<Endpoint>.stubbed(.immediate, stubResponse: { _, _ in
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
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let destination = DownloadDestination(folder.file("out.bin"))
        let stub = StubTransport(StubResponse(body: Data("file body".utf8)))
        let response = try await Provider<Endpoint>(transport: stub).request(Endpoint(TestAPI.download(9, destination)))
        #expect(response.download == DownloadedFile(url: destination.url, byteCount: 9))
        #expect(try Data(contentsOf: destination.url) == Data("file body".utf8))
    }
}

