import Foundation
import Networking
import Synchronization
import TestSupport
import Testing

/// Hook order, request and result changes, interceptors, retries and their limits.
@Suite struct ProviderPipelineTests {
    let target = Endpoint(TestAPI.status(200))

    @Test func hooksRunInDocumentedOrder() async throws {
        let log = SharedLog()
        let provider = Provider<Endpoint>(
            transport: StubTransport(StubResponse()),
            plugins: [RecordingPlugin("A", shared: log), RecordingPlugin("B", shared: log)],
            interceptors: [RetryOnceInterceptor(log: log)])
        _ = try await provider.request(target)
        #expect(
            log.all == [
                "A.prepare", "B.prepare", "interceptor.adapt#1", "A.willSend#1", "B.willSend#1",
                "A.didReceive#1:200", "B.didReceive#1:200", "A.process", "B.process",
            ])
    }

    @Test func retryRunsHooksPerAttempt() async throws {
        let log = SharedLog()
        let server = FakeAuthServer()
        let provider = Provider<Endpoint>(
            transport: StubTransport { await server.handle($0) },
            plugins: [RecordingPlugin("P", shared: log)],
            interceptors: [RetryOnceInterceptor(log: log)])
        let response = try await provider.request(target)
        #expect(response.statusCode == 200)
        #expect(response.request.attempt == 2)
        #expect(
            log.all == [
                "P.prepare", "interceptor.adapt#1", "P.willSend#1", "P.didReceive#1:401", "interceptor.retry#1",
                "P.willRetry#1", "interceptor.adapt#2", "P.willSend#2", "P.didReceive#2:200", "P.process",
            ])
        #expect(await server.seenTokens == ["Bearer stale", "Bearer fresh"])
    }

    @Test func interceptorRetriesOnlyOnce() async throws {
        let stub = StubTransport(.json(#"{"errorCode":"E04"}"#, statusCode: 401))
        let provider = Provider<Endpoint>(transport: stub, interceptors: [RetryOnceInterceptor()])
        await #expect {
            _ = try await provider.request(target)
        } throws: { error in
            (error as? NetworkError)?.statusCode == 401
        }
        #expect(stub.requests.count == 2)
        #expect(stub.requests.map(\.attempt) == [1, 2])
        #expect(stub.requests.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer fresh"])
    }

    @Test func unauthorizedFailureCarriesTheFullResponse() async throws {
        let stub = StubTransport(
            .json(#"{"errorCode":"E04","message":"expired"}"#, statusCode: 401, headers: ["X-Trace": "t1"]))
        do {
            _ = try await Provider<Endpoint>(transport: stub).request(target)
            Issue.record("expected a failure")
        } catch {
            guard case .unacceptableStatus(let response) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(response.statusCode == 401)
            #expect(response.headers["x-trace"] == "t1")
            #expect(try response.string(atKeyPath: "errorCode") == "E04")
            #expect(error.description.contains("401 Unauthorized"))
        }
    }

    @Test func retryAfterWaitsOnTheProviderClock() async throws {
        let clock = TestClock()
        let server = FakeAuthServer()
        let provider = Provider<Endpoint>(
            transport: StubTransport { await server.handle($0) },
            interceptors: [RetryOnceInterceptor(delay: .seconds(30))], clock: clock)
        let call = Task { try await provider.request(target) }
        try await waitUntil("the retry to sleep") { clock.sleeperCount == 1 }
        #expect(await server.seenTokens.count == 1)
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let response = try await call.value
        #expect(response.statusCode == 200)
        #expect(clock.sleepRequests == [.seconds(30)])
    }

    @Test func prepareAndProcessCanChangeRequestAndResult() async throws {
        let stub = StubTransport(.json("{}", statusCode: 500))
        let replacement = Response(
            statusCode: 299, body: Data("replaced".utf8), request: Request(method: .get, url: target.baseURL))
        let provider = Provider<Endpoint>(
            transport: stub,
            plugins: [RecordingPlugin("P", addHeader: ("X-Added", "yes"), replaceResult: .success(replacement))])
        let response = try await provider.request(target)
        #expect(response.text == "replaced")
        #expect(stub.requests.first?.headers["X-Added"] == "yes")
    }

    struct SessionExpired: Error, Equatable {}

    struct RefreshingInterceptor: Interceptor {
        func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
            -> RetryDecision
        {
            throw SessionExpired()
        }
    }

    struct FailingAdapter: Interceptor {
        func adapt(_ request: Request, for target: any TargetType) async throws -> Request { throw SessionExpired() }
    }

    @Test func interceptorErrorsReachTheCallerUnchanged() async throws {
        let stub = StubTransport(.json("{}", statusCode: 401))
        for interceptor in [RefreshingInterceptor() as any Interceptor, FailingAdapter()] {
            let plugin = RecordingPlugin("P")
            do {
                _ = try await Provider<Endpoint>(transport: stub, plugins: [plugin], interceptors: [interceptor])
                    .request(target)
                Issue.record("expected a failure")
            } catch {
                guard case .interceptor(let underlying) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(underlying as? SessionExpired == SessionExpired())
                #expect(plugin.calls.last == "process")
            }
        }
    }

    struct AlwaysRetry: Interceptor {
        func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
            -> RetryDecision
        { .retry }
    }

    @Test func retriesAreCapped() async throws {
        let stub = StubTransport(.json("{}", statusCode: 503))
        let provider = Provider<Endpoint>(transport: stub, interceptors: [AlwaysRetry()], maximumRetries: 2)
        await #expect(throws: NetworkError.self) { _ = try await provider.request(target) }
        #expect(stub.requests.count == 3)
    }

    @Test func refreshTargetOptsOutOfAuthorization() async throws {
        let stub = StubTransport(StubResponse())
        let provider = Provider<Endpoint>(transport: stub, interceptors: [AccessTokenInterceptor { "abc" }])
        _ = try await provider.request(Endpoint(TestAPI.refresh))
        _ = try await provider.request(Endpoint(TestAPI.status(200)))
        #expect(stub.requests.map { $0.headers["Authorization"] } == [nil, "Bearer abc"])
    }

    @Test func authorizationHeaderIsReplacedNotAppended() async throws {
        let stub = StubTransport(StubResponse())
        let target = AdHoc(method: .get, headers: ["Authorization": "Bearer old"])
        _ = try await Provider<AdHoc>(transport: stub, interceptors: [AccessTokenInterceptor { "new" }]).request(target)
        #expect(stub.requests.first?.headers.values(for: "authorization") == ["Bearer new"])
    }

    @Test func decodesAtKeyPath() async throws {
        struct Person: Decodable, Equatable { var name: String }
        let stub = StubTransport(.json(#"{"status":200,"data":{"person":{"name":"Ada"}}}"#))
        let person = try await Provider<Endpoint>(transport: stub).request(
            target, as: Person.self, atKeyPath: "data.person")
        #expect(person == Person(name: "Ada"))
    }

    @Test func decodingFailureNamesTypeKeyPathAndExcerpt() async throws {
        struct Card: Decodable {
            var name: String
            var tags: [String]
        }
        let stub = StubTransport(
            .json(#"{"data":{"cards":[{"name":"A","tags":[]},{"name":"B","tags":[1]}],"accessToken":"s3cr3t-value"}}"#))
        do {
            _ = try await Provider<Endpoint>(transport: stub).request(target, as: [Card].self, atKeyPath: "data.cards")
            Issue.record("expected a failure")
        } catch {
            guard case .decoding(let failure) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failure.typeName == "Array<Card>")
            #expect(failure.keyPath == "data.cards[1].tags[0]")
            #expect(failure.reason.contains("expected String"))
            #expect(failure.bodyExcerpt.hasPrefix(#"{"data":{"cards":"#))
            #expect(!error.description.contains("s3cr3t-value"))
            #expect(error.description.contains("<private>"))
        }
    }

    @Test func successFilters() throws {
        let request = Request(method: .get, url: URL(string: "http://x.invalid/a")!)
        let ok = Response(statusCode: 204, request: request)
        #expect(try ok.filterSuccessfulStatusCodes().statusCode == 204)
        #expect(throws: NetworkError.self) {
            try Response(statusCode: 302, request: request).filterSuccessfulStatusCodes()
        }
        #expect(try Response(statusCode: 302, request: request).filter(statusCodes: 300...399).statusCode == 302)
    }

    @Test func validationKinds() {
        #expect(Validation.successCodes.accepts(299) && !Validation.successCodes.accepts(300))
        #expect(Validation.successAndRedirectCodes.accepts(399))
        #expect(Validation.none.accepts(500))
        #expect(Validation.customCodes([200, 404]).accepts(404) && !Validation.customCodes([200]).accepts(201))
    }

    @Test func cancellationBeforeSendingIsReported() async throws {
        let stub = StubTransport(StubResponse())
        let provider = Provider<Endpoint>(transport: stub)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.request(target)
        }
        await #expect {
            _ = try await call.value
        } throws: { ($0 as? NetworkError)?.isCancelled == true }
        #expect(stub.requests.isEmpty)
    }
}
