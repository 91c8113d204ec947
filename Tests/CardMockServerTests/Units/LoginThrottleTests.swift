import Foundation
import Testing

@testable import CardMockServer

@Suite struct LoginThrottleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func failuresReachTheLimitThenEveryAttemptIsRefusedUntilTheWindowMoves() {
        var throttle = LoginThrottle<String>(limit: 3)
        for second in 0..<3 {
            let now = start.addingTimeInterval(Double(second))
            #expect(throttle.begin("a", now: now) == .proceed)
            throttle.finish("a", succeeded: false, now: now)
        }
        #expect(throttle.begin("a", now: start.addingTimeInterval(10)) == .refuse(retryAfter: 50))
        #expect(throttle.begin("b", now: start.addingTimeInterval(10)) == .proceed, "other keys are not affected")
        #expect(
            throttle.begin("a", now: start.addingTimeInterval(60.5)) == .proceed, "the oldest failure left the window")
    }

    @Test func attemptsInFlightMakeLaterOnesWaitNotFail() {
        var throttle = LoginThrottle<String>(limit: 3)
        #expect(throttle.begin("a", now: start) == .proceed)
        #expect(throttle.begin("a", now: start) == .proceed)
        #expect(throttle.begin("a", now: start) == .proceed)
        #expect(throttle.attemptsInFlight("a") == 3)
        #expect(throttle.begin("a", now: start) == .wait)
        // A success forgets the failures and frees its place: the waiting attempt may go.
        throttle.finish("a", succeeded: true, now: start)
        #expect(throttle.begin("a", now: start) == .proceed)
        // Three failures in flight: the fourth attempt is refused once they are recorded.
        throttle.finish("a", succeeded: false, now: start)
        throttle.finish("a", succeeded: false, now: start)
        #expect(throttle.begin("a", now: start) == .wait)
        throttle.finish("a", succeeded: false, now: start)
        #expect(throttle.attemptsInFlight("a") == 0)
        #expect(throttle.begin("a", now: start) == .refuse(retryAfter: 60))
    }

    @Test func aSuccessClearsEarlierFailures() {
        var throttle = LoginThrottle<String>(limit: 3)
        for _ in 0..<2 {
            _ = throttle.begin("a", now: start)
            throttle.finish("a", succeeded: false, now: start)
        }
        _ = throttle.begin("a", now: start)
        throttle.finish("a", succeeded: true, now: start)
        for _ in 0..<3 { #expect(throttle.begin("a", now: start) == .proceed) }
    }

    @Test func zeroTurnsItOff() {
        var throttle = LoginThrottle<String>(limit: 0)
        for _ in 0..<100 {
            #expect(throttle.begin("a", now: start) == .proceed)
            throttle.finish("a", succeeded: false, now: start)
        }
    }
}
