import CardAPIContract
import CardModels
import Foundation
import Synchronization
import TestSupport
import Testing

/// Hostile timing: trickled bodies and heads, a trickled refresh holding the token file's lock,
/// `Retry-After` as a date, an answer too large to keep.
extension HostileServerTests {
    /// Headers, then one byte every 250 ms, forever: `list` ends at its request deadline (3 s
    /// here, 60 s by default) with exit 6 and says why, and the connection is closed.
    @Test func aTrickledBodyEndsAtTheRequestDeadlineWithExit6() async throws {
        try await HostileWorld.with({ _ in .trickledBody(every: .milliseconds(250)) }) { world in
            try await world.storeSession()
            let clock = ContinuousClock()
            let started = clock.now
            let list = try await world.start(["list"], environment: ["CARDWALLET_TIMEOUTS_REQUEST": "3s"])
                .finish(timeout: .seconds(60))
            let elapsed = clock.now - started
            #expect(list.status == 6, "\(list)")
            #expect(list.stderr.contains("the answer was still arriving after 3 s"), "\(list)")
            #expect(elapsed >= .seconds(3), "ended before its deadline: \(elapsed)")
            try await waitUntil("the client closed the trickled connection") { world.server.closedConnections >= 1 }
        }
    }

    /// A refresh whose answer trickles holds the token file's lock only until the refresh's own
    /// deadline (`timeouts.auth`, 2 s here, 20 s by default): a second process waiting on the
    /// lock then refreshes and succeeds, instead of giving up on the lock after 30 s.
    @Test func aTrickledRefreshReleasesTheTokenFileAtItsDeadline() async throws {
        let refreshes = Mutex(0)
        try await HostileWorld.with({ request in
            switch request.path {
            case "/v1/auth/refresh":
                let count = refreshes.withLock { count in
                    count += 1
                    return count
                }
                return count == 1 ? .trickledBody(every: .milliseconds(250)) : .success(Hostile.grant())
            default:
                return .success(APICardPage(cards: [Hostile.card("card_after")], total: 1, offset: 0, limit: 200))
            }
        }) { world in
            try await world.storeSession(accessValidFor: -60)
            let environment = ["CARDWALLET_TIMEOUTS_AUTH": "2s"]
            let first = try world.start(["list"], environment: environment)
            try await waitUntil("the first refresh on the wire") {
                !world.server.requests(to: "/v1/auth/refresh").isEmpty
            }
            let second = try world.start(["list"], environment: environment)
            let firstResult = try await first.finish(timeout: .seconds(60))
            let secondResult = try await second.finish(timeout: .seconds(60))
            #expect(firstResult.status == 6, "\(firstResult)")
            #expect(firstResult.stderr.contains("after 2 s"), "\(firstResult)")
            #expect(secondResult.status == 0, "\(secondResult)")
            #expect(secondResult.stdout.contains("card_after"), "\(secondResult)")
            let both = world.server.requests(to: "/v1/auth/refresh")
            #expect(both.count == 2)
            // The second refresh came after the first one's deadline, not on top of it. (The
            // deadline starts in the client, a little before the first request reaches the
            // server, so the gap the server sees may be a few milliseconds under 2 s.)
            if both.count == 2 { #expect(both[1].arrival - both[0].arrival >= .milliseconds(1500)) }
        }
    }

    /// Which kind of server an address is gets asked with a short deadline (5 s), not the request
    /// deadline (60 s by default): against an address that never answers, `login` gives up
    /// after the probe's deadline with exit 6, says what to do, and stores nothing.
    @Test func aLoginAtAnAddressThatNeverAnswersGivesUpAtTheProbeDeadline() async throws {
        try await HostileWorld.with({ _ in .trickledHead(every: .milliseconds(250)) }) { world in
            let clock = ContinuousClock()
            let started = clock.now
            let login = try await world.start(
                ["login", "--email", Hostile.email, "--password-stdin"], input: "secret-password\n"
            ).finish(timeout: .seconds(90))
            let elapsed = clock.now - started
            #expect(login.status == 6, "\(login)")
            #expect(elapsed < .seconds(40), "waited \(elapsed), as long as a request's deadline")
            #expect(!login.stderr.contains("secret-password"), "\(login)")
            #expect(!FileManager.default.fileExists(atPath: world.tokenFile), "nothing stored")
        }
    }

    /// A head that trickles in is not "the server sent nothing": the command ends at its
    /// deadline with exit 6 and says no complete answer came (with the read timeout below the
    /// deadline, as by default, that the header never completed: `LiveTransportTrickleTests`).
    @Test func aTrickledHeadIsReportedAsAnIncompleteHeader() async throws {
        try await HostileWorld.with({ _ in .trickledHead(every: .milliseconds(250)) }) { world in
            try await world.storeSession()
            let list = try await world.start(["list"], environment: ["CARDWALLET_TIMEOUTS_REQUEST": "3s"])
                .finish(timeout: .seconds(60))
            #expect(list.status == 6, "\(list)")
            #expect(
                list.stderr.contains("no complete answer within 3 s")
                    || list.stderr.contains("did not send a complete response header within 3 s"), "\(list)")
            #expect(!list.stderr.contains("sent nothing"), "\(list)")
        }
    }

    /// `Retry-After` as an HTTP date (measured against the answer's own `Date`) is waited out:
    /// the retry comes after it and succeeds. It used to be ignored (a 1-second wait).
    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let first = Mutex<ContinuousClock.Instant?>(nil)
        try await HostileWorld.with({ request in
            let start = first.withLock { first in
                if first == nil { first = request.arrival }
                return first!
            }
            guard request.arrival - start < .seconds(2) else {
                return .success(APICardPage(cards: [Hostile.card("card_later")], total: 1, offset: 0, limit: 200))
            }
            let now = Date()
            return .error(
                status: 429, code: "E10", message: "slow down",
                headers: [("Date", HTTPDateText.format(now)), ("Retry-After", HTTPDateText.format(now + 3))])
        }) { world in
            try await world.storeSession()
            let list = try await world.run(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(list.stdout.contains("card_later"), "\(list)")
            let requests = world.server.requests(to: "/v1/cards")
            #expect(requests.count == 2)
            if requests.count == 2 { #expect(requests[1].arrival - requests[0].arrival >= .seconds(2)) }
        }
    }

    /// An answer larger than the client keeps (announced as 40 MiB) is the server's fault: a
    /// sentence for people and exit 1, not "network failure, try again" (exit 6).
    @Test func anOversizedAnswerGetsASentenceForPeople() async throws {
        try await HostileWorld.with({ _ in .announced(length: 40 << 20) }) { world in
            try await world.storeSession()
            let list = try await world.run(["list"])
            #expect(list.status == 1, "\(list)")
            #expect(list.stderr.contains("larger than cardwallet accepts"), "\(list)")
            #expect(!list.stderr.contains("download it to a file"), "\(list)")
        }
    }
}

/// HTTP dates for the test server's headers: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDateText {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
