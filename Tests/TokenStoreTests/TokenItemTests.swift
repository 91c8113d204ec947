import Foundation
import Testing

@testable import TokenStore

@Suite("Token items: keys, dates and redaction")
struct TokenItemTests {
    @Test(
        "Servers are normalised: trailing slashes and surrounding spaces go",
        arguments: [
            ("http://h:8080/v1", "http://h:8080/v1"),
            ("http://h:8080/v1/", "http://h:8080/v1"),
            ("http://h:8080/v1///", "http://h:8080/v1"),
            ("  http://h:8080/v1/ \n", "http://h:8080/v1"),
            ("http://h:8080/", "http://h:8080"),
        ])
    func serverNormalisation(input: String, expected: String) {
        #expect(TokenItem.normalizedServer(input) == expected)
        #expect(Samples.item(server: input).server == expected)
    }

    @Test("Accounts are trimmed and match without regard to case")
    func accountMatching() {
        let item = Samples.item(account: "  Ann@Example.com ")
        #expect(item.account == "Ann@Example.com")
        #expect(item.matches(server: Samples.server + "/", account: "ann@example.COM"))
        #expect(!item.matches(server: Samples.server, account: "bob@example.com"))
        #expect(!item.matches(server: "http://other/v1", account: "ann@example.com"))
    }

    @Test("Expiry dates are rounded down to whole seconds")
    func wholeSeconds() {
        let item = TokenItem(
            server: "s", account: "a", accessToken: "x",
            accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_000.999),
            refreshToken: "y", refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_100.2))
        #expect(item.accessTokenExpiresAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(item.refreshTokenExpiresAt == Date(timeIntervalSince1970: 1_800_000_100))
    }

    @Test("description, debugDescription, dump and interpolation never show a token")
    func redaction() {
        let item = Samples.item()
        var dumped = ""
        dump(item, to: &dumped)
        let texts = [item.description, item.debugDescription, "\(item)", String(reflecting: item), dumped, "\([item])"]
        for text in texts {
            #expect(!text.contains(Samples.canary), "token leaked in: \(text)")
            #expect(text.contains("ann@example.com"))
        }
        #expect(item.description.contains("accessToken: <private>"))
        #expect(item.description.contains("refreshToken: <private>"))
    }

    @Test("Control characters in text fields are escaped in the description")
    func escaping() {
        let item = TokenItem(
            server: "s", account: "evil\u{1B}[2J", accessToken: "x", accessTokenExpiresAt: Samples.expiry,
            refreshToken: "y", refreshTokenExpiresAt: Samples.expiry, displayName: "bell\u{07}")
        #expect(!item.description.contains("\u{1B}"))
        #expect(!item.description.contains("\u{07}"))
    }
}
