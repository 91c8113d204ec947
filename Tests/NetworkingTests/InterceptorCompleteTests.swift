import Foundation
import Networking
import TestSupport
import Testing

/// `Interceptor.complete`: the last word on a request's result, once its last attempt is done and
/// its admission slot given back, before the plugins' `process`.
@Suite struct InterceptorCompleteTests {
    let target = Endpoint(TestAPI.status(200))

    struct Refused: Error {}

    /// Turns every result into a failure, writing down when it does.
    struct RefusingCompletion: Interceptor {
        let log: SharedLog

        func complete(
            _ result: Result<Response, NetworkError>, for request: Request, target: any TargetType
        ) async -> Result<Response, NetworkError> {
            log.append("interceptor.complete#\(request.attempt)")
            return .failure(.interceptor(Refused()))
        }
    }

    /// Holds every result until its gate opens.
    struct HoldingCompletion: Interceptor {
        let gate = Gate()

        func complete(
            _ result: Result<Response, NetworkError>, for request: Request, target: any TargetType
        ) async -> Result<Response, NetworkError> {
            await gate.wait()
            return result
        }
    }

    @Test func completeSeesTheLastResultBeforeProcessAndMayChangeIt() async throws {
        let log = SharedLog()
        let provider = Provider<Endpoint>(
            transport: StubTransport(StubResponse()), plugins: [RecordingPlugin("P", shared: log)],
            interceptors: [RefusingCompletion(log: log)])
        await #expect {
            _ = try await provider.request(target)
        } throws: { error in
            guard case .interceptor(let inner)? = error as? NetworkError else { return false }
            return inner is Refused
        }
        #expect(
            log.all == ["P.prepare", "P.willSend#1", "P.didReceive#1:200", "interceptor.complete#1", "P.process"])
    }

    @Test func aRequestWaitingInCompleteHoldsNoAdmissionSlot() async throws {
        let holding = HoldingCompletion()
        let stub = StubTransport(StubResponse())
        let provider = Provider<Endpoint>(transport: stub, interceptors: [holding], admission: Admission(limit: 1))
        let first = Task { try await provider.request(target) }
        try await waitUntil("the first answer held") { holding.gate.waiterCount == 1 }
        // The only slot is free again: the next request goes out while the first still waits.
        let second = Task { try await provider.request(target) }
        try await waitUntil("the second answer held too") { holding.gate.waiterCount == 2 }
        #expect(stub.requests.count == 2)
        let url = try #require(stub.requests.first?.url)
        #expect(provider.admission.status(for: url) == .init(running: 0, waiting: 0, holds: 0))
        holding.gate.open()
        #expect(try await first.value.statusCode == 200)
        #expect(try await second.value.statusCode == 200)
    }
}
