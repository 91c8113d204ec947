import Foundation
import Testing

@testable import CardMockServer

@Suite struct TokenBookTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let lifetimes = TokenBook.Lifetimes(access: 300, refresh: 86_400)

    @Test func issuedTokensAreLongRandomAndStoredOnlyAsDigests() throws {
        var book = TokenBook()
        let pair = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        #expect(pair.accessToken.hasPrefix("cwa_"))
        #expect(pair.refreshToken.hasPrefix("cwr_"))
        #expect(pair.accessToken.count >= 60)
        let other = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        #expect(other.accessToken != pair.accessToken)
        // Nothing stored contains the secret half of a token.
        let stored = String(decoding: try JSONEncoder().encode(book), as: UTF8.self)
        for token in [pair.accessToken, pair.refreshToken, other.accessToken, other.refreshToken] {
            let secret = String(token.split(separator: ".")[1])
            #expect(!stored.contains(secret))
        }
        #expect(pair.accessTokenExpiresAt == start.addingTimeInterval(300))
        #expect(pair.refreshTokenExpiresAt == start.addingTimeInterval(86_400))
    }

    @Test func accessTokenExpiresAndForgedOnesAreInvalid() throws {
        var book = TokenBook()
        let pair = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        #expect(book.authenticate(pair.accessToken, now: start) == .success("u1"))
        #expect(book.authenticate(pair.accessToken, now: start.addingTimeInterval(299)) == .success("u1"))
        #expect(book.authenticate(pair.accessToken, now: start.addingTimeInterval(300)) == .failure(.expired))
        // Right selector, wrong secret; wrong kind; garbage.
        let parts = pair.accessToken.split(separator: ".")
        let forged = parts[0] + "." + String(repeating: "A", count: parts[1].count)
        #expect(book.authenticate(String(forged), now: start) == .failure(.invalid))
        #expect(book.authenticate(pair.refreshToken, now: start) == .failure(.invalid))
        #expect(book.authenticate("", now: start) == .failure(.invalid))
        #expect(book.authenticate("cwa_../../etc/passwd", now: start) == .failure(.invalid))
    }

    @Test func refreshRotatesAndReuseRevokesTheWholeFamily() throws {
        var book = TokenBook()
        let first = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        let unrelated = book.login(userID: "u1", now: start, lifetimes: lifetimes)

        let second = try book.refresh(first.refreshToken, now: start.addingTimeInterval(10), lifetimes: lifetimes).get()
        #expect(second.refreshToken != first.refreshToken)
        #expect(second.accessTokenExpiresAt == start.addingTimeInterval(310))
        // The old access token stays valid until it expires; the new pair works.
        #expect(book.authenticate(first.accessToken, now: start.addingTimeInterval(10)) == .success("u1"))
        #expect(book.authenticate(second.accessToken, now: start.addingTimeInterval(10)) == .success("u1"))

        // The rotated refresh token comes back: reuse. The family dies, access tokens included.
        let result1 = book.refresh(first.refreshToken, now: start.addingTimeInterval(20), lifetimes: lifetimes)
        #expect(result1 == .failure(.reused))
        let result2 = book.refresh(second.refreshToken, now: start.addingTimeInterval(21), lifetimes: lifetimes)
        #expect(result2 == .failure(.revoked))
        #expect(book.authenticate(second.accessToken, now: start.addingTimeInterval(21)) == .failure(.invalid))
        #expect(book.authenticate(first.accessToken, now: start.addingTimeInterval(21)) == .failure(.invalid))

        // Another login of the same user is another family and is untouched.
        #expect(book.authenticate(unrelated.accessToken, now: start.addingTimeInterval(21)) == .success("u1"))
        let result3 = book.refresh(unrelated.refreshToken, now: start.addingTimeInterval(22), lifetimes: lifetimes)
        #expect((try? result3.get()) != nil)
    }

    @Test func expiredAndUnknownRefreshTokensFail() {
        var book = TokenBook()
        let pair = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        let result4 = book.refresh(pair.refreshToken, now: start.addingTimeInterval(86_400), lifetimes: lifetimes)
        #expect(result4 == .failure(.expired))
        let result5 = book.refresh("cwr_nothing.here", now: start, lifetimes: lifetimes)
        #expect(result5 == .failure(.unknown))
        let result6 = book.refresh(pair.accessToken, now: start, lifetimes: lifetimes)
        #expect(result6 == .failure(.unknown))
    }

    @Test func logoutEndsTheFamilyEvenWithAnExpiredAccessToken() {
        var book = TokenBook()
        let pair = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        let result7 = book.logout(accessToken: pair.accessToken, refreshToken: nil)
        #expect(result7)
        #expect(book.authenticate(pair.accessToken, now: start) == .failure(.invalid))
        let result8 = book.refresh(pair.refreshToken, now: start, lifetimes: lifetimes)
        #expect(result8 == .failure(.revoked))
        let result9 = book.logout(accessToken: pair.accessToken, refreshToken: nil)
        #expect(!result9)

        let second = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        #expect(book.authenticate(second.accessToken, now: start.addingTimeInterval(400)) == .failure(.expired))
        let result10 = book.logout(accessToken: nil, refreshToken: second.refreshToken)
        #expect(result10)
        let result11 = book.logout(accessToken: "cwa_unknown", refreshToken: "garbage")
        #expect(!result11)
    }

    @Test func adminExpireAndRevokeTouchOnlyThatUser() throws {
        var book = TokenBook()
        let mine = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        let theirs = book.login(userID: "u2", now: start, lifetimes: lifetimes)
        let result12 = book.expireAccessTokens(userID: "u1", now: start.addingTimeInterval(1))
        #expect(result12 == 1)
        #expect(book.authenticate(mine.accessToken, now: start.addingTimeInterval(1)) == .failure(.expired))
        #expect(book.authenticate(theirs.accessToken, now: start.addingTimeInterval(1)) == .success("u2"))
        // Expired access tokens refresh fine.
        let refreshed = try book.refresh(mine.refreshToken, now: start.addingTimeInterval(2), lifetimes: lifetimes)
            .get()

        let result13 = book.revokeRefreshTokens(userID: "u1")
        #expect(result13 == 1)
        let result14 = book.refresh(refreshed.refreshToken, now: start.addingTimeInterval(3), lifetimes: lifetimes)
        #expect(result14 == .failure(.revoked))
        // Revoking refresh tokens leaves access tokens working until they expire.
        #expect(book.authenticate(refreshed.accessToken, now: start.addingTimeInterval(3)) == .success("u1"))
        let result15 = book.refresh(theirs.refreshToken, now: start.addingTimeInterval(3), lifetimes: lifetimes)
        #expect((try? result15.get()) != nil)
    }

    @Test func pruningDropsLongExpiredRecordsOnly() {
        var book = TokenBook()
        _ = book.login(userID: "u1", now: start, lifetimes: lifetimes)
        book.prune(now: start.addingTimeInterval(86_400 + TokenBook.retentionAfterExpiry - 1))
        #expect(book.refreshRecords.count == 1)
        #expect(book.accessRecords.isEmpty)
        book.prune(now: start.addingTimeInterval(86_400 + TokenBook.retentionAfterExpiry + 1))
        #expect(book.refreshRecords.isEmpty && book.accessRecords.isEmpty && book.families.isEmpty)
    }

    @Test func constantTimeComparisonComparesEveryByte() {
        #expect(OpaqueToken.constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 3])))
        #expect(!OpaqueToken.constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 4])))
        #expect(!OpaqueToken.constantTimeEquals(Data([1, 2, 3]), Data([1, 2])))
    }
}

@Suite struct SlidingWindowLimiterTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func blocksPastTheLimitAndSaysHowLongToWait() {
        var limiter = SlidingWindowLimiter<String>(limit: 3)
        for second in 0..<3 {
            let allowed = limiter.attempt("a", now: start.addingTimeInterval(Double(second)))
            #expect(allowed == nil)
        }
        let blocked = limiter.attempt("a", now: start.addingTimeInterval(10))
        #expect(blocked == 50)
        let otherKey = limiter.attempt("b", now: start.addingTimeInterval(10))
        #expect(otherKey == nil)
        // The oldest event leaves the window after 60 s.
        let later = limiter.attempt("a", now: start.addingTimeInterval(60.5))
        #expect(later == nil)
        let wait = limiter.retryAfter("a", now: start.addingTimeInterval(60.5))
        #expect(wait == 1)
    }

    @Test func zeroTurnsItOffAndResetForgets() {
        var off = SlidingWindowLimiter<String>(limit: 0)
        for _ in 0..<1000 {
            let allowed = off.attempt("a", now: start)
            #expect(allowed == nil)
        }
        var limiter = SlidingWindowLimiter<String>(limit: 1)
        limiter.record("a", now: start)
        let blocked = limiter.retryAfter("a", now: start)
        #expect(blocked != nil)
        limiter.reset("a")
        let allowed = limiter.retryAfter("a", now: start)
        #expect(allowed == nil)
    }
}
