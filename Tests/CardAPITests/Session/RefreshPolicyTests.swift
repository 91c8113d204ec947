import Foundation
import SessionCore
import Testing
import TokenStore

@testable import CardAPI

/// The refresh margin and the loop guard as pure rules: a margin proportional to the token's
/// lifetime, a guard that counts only refreshed tokens the server rejected.
@Suite struct RefreshPolicyTests {
    /// Every token here expires at this whole second, as the token file stores expiries.
    static let expiry = Date(timeIntervalSince1970: 1_800_003_600)

    /// A token that lived `lifetime` seconds when it arrived (`nil`: not recorded, as in a token
    /// file written before the lifetime was kept).
    static func token(lifetime: TimeInterval?) -> TokenItem {
        TokenItem(
            server: "http://cards.test/v1", account: "ann@example.com", accessToken: "a", accessTokenExpiresAt: expiry,
            refreshToken: "r", refreshTokenExpiresAt: expiry.addingTimeInterval(86_400),
            accessTokenIssuedAt: lifetime.map { expiry.addingTimeInterval(-$0) })
    }

    /// How long before its expiry `lifetime`'s token is due for a refresh, in milliseconds (the
    /// dates are near 1.8e9 s, where a `Double` holds only about a microsecond).
    static func margin(lifetime: TimeInterval?, _ policy: SessionPolicy = SessionPolicy()) -> Int {
        Int((expiry.timeIntervalSince(policy.refreshDate(for: token(lifetime: lifetime))) * 1000).rounded())
    }

    @Test func theMarginIsATenthOfTheLifetimeCappedAtThirtySeconds() {
        #expect(Self.margin(lifetime: 2) == 200)
        #expect(Self.margin(lifetime: 20) == 2_000)
        #expect(Self.margin(lifetime: 30) == 3_000)  // refreshed 27 s after it arrived, not at once
        #expect(Self.margin(lifetime: 300) == 30_000)
        #expect(Self.margin(lifetime: 3600) == 30_000)  // capped: 30 s, not 360 s
        // The configured margin is the cap: a smaller one caps sooner.
        #expect(Self.margin(lifetime: 3600, SessionPolicy(refreshMargin: .seconds(5))) == 5_000)
        #expect(Self.margin(lifetime: 30, SessionPolicy(refreshMargin: .zero)) == 0)
    }

    @Test func aTokenOfUnknownLifetimeGetsTheWholeMargin() {
        // A token file written by an older cardwallet: 30 s before expiry, as before.
        #expect(Self.token(lifetime: nil).accessTokenLifetime == nil)
        #expect(Self.margin(lifetime: nil) == 30_000)
        #expect(Self.margin(lifetime: nil, SessionPolicy(refreshMargin: .seconds(5))) == 5_000)
    }

    @Test func aTokenReceivedAMomentAgoIsNeverDue() {
        // Lives 0.5 s: its margin would make it due 0.45 s after it arrived; it is used for a
        // whole second first (half a second past its expiry by this computer's clock).
        #expect(Self.margin(lifetime: 0.5) == -500)
        #expect(Self.margin(lifetime: 0.5, SessionPolicy(minimumTokenAge: .zero)) == 50)
    }

    @Test func aTokenThatArrivedExpiredIsUsedUntilTheServerRejectsIt() {
        // This computer's clock is ahead of the server's: by the clock every token is expired.
        let policy = SessionPolicy()
        #expect(policy.refreshDate(for: Self.token(lifetime: -4.5)) == .distantFuture)
        #expect(policy.refreshDate(for: Self.token(lifetime: 0)) == .distantFuture)
    }

    @Test func theGuardWindowIsTenLifetimesWithinThirtySecondsAndFiveMinutes() {
        let policy = SessionPolicy()
        #expect(policy.guardWindow(forLifetime: nil) == .seconds(30))
        #expect(policy.guardWindow(forLifetime: 2) == .seconds(30))
        #expect(policy.guardWindow(forLifetime: 7.5) == .seconds(75))
        #expect(policy.guardWindow(forLifetime: 300) == .seconds(300))
        #expect(policy.guardWindow(forLifetime: -3) == .seconds(30))
    }

    @Test func successfulRefreshesNeverCountTowardTheGuard() {
        var guardian = RefreshGuard(limit: 3)
        let start = Date(timeIntervalSince1970: 1_000)
        // A refresh every 1.8 s for a quarter of an hour, each token accepted: always admitted.
        for step in 0..<500 {
            let now = start.addingTimeInterval(Double(step) * 1.8)
            let admitted = guardian.admits(at: now, window: .seconds(30))
            #expect(admitted)
            guardian.produced("token_\(step)")
            guardian.accepted("token_\(step)")
        }
        #expect(guardian.rejections.isEmpty)
    }

    @Test func rejectedRefreshesInARowTripTheGuardUntilTheWindowPasses() {
        var guardian = RefreshGuard(limit: 3)
        let start = Date(timeIntervalSince1970: 1_000)
        for step in 0..<3 {
            let now = start.addingTimeInterval(Double(step))
            let admitted = guardian.admits(at: now, window: .seconds(30))
            #expect(admitted)
            guardian.produced("token_\(step)")
            guardian.rejected("token_\(step)", at: now)
        }
        let later = [10, 29.9, 30].map { guardian.admits(at: start.addingTimeInterval($0), window: .seconds(30)) }
        // Refused until the first rejection leaves the window, at 30 s.
        #expect(later == [false, false, true])
    }

    @Test func anAcceptedTokenEndsTheStreakAndVerdictsOnOtherTokensAreIgnored() {
        var guardian = RefreshGuard(limit: 3)
        let now = Date(timeIntervalSince1970: 1_000)
        guardian.produced("a")
        guardian.rejected("a", at: now)
        guardian.produced("b")
        guardian.rejected("b", at: now)
        guardian.produced("c")
        guardian.rejected("old", at: now)  // a 401 for a token no refresh produced: not a loop
        guardian.accepted("old")  // nor does an old token's success end c's probation
        #expect(guardian.onProbation == "c")
        #expect(guardian.rejections.count == 2)
        guardian.accepted("c")
        #expect(guardian.rejections.isEmpty)
        #expect(guardian.onProbation == nil)
        guardian.rejected("c", at: now)  // a later 401 for a token that worked is an expiry, not a loop
        #expect(guardian.rejections.isEmpty)
    }
}
