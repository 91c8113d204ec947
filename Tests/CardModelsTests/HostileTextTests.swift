import CardAPIContract
import CardModels
import Foundation
import Testing

/// What a hostile server can send in the shared wire types (issue 13).
@Suite struct HostileTextTests {
    /// Every millisecond survives a decode and an encode: `.818Z` used to become `.817Z`
    /// (and `.001Z` `.000Z`), because the format style cuts a binary fraction a hair below it.
    @Test func datesKeepEveryMillisecond() throws {
        for millisecond in 0..<1000 {
            let text = "2026-11-21T09:30:00." + String(format: "%03d", millisecond) + "Z"
            let date = try #require(CardWalletJSON.parseDate(text))
            #expect(CardWalletJSON.formatDate(date) == text)
        }
        #expect(
            CardWalletJSON.formatDate(Date(timeIntervalSince1970: 1_795_253_400.9996)) == "2026-11-21T09:30:01.000Z")
        #expect(CardWalletJSON.formatDate(Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        let summary = CardSummary(
            id: "c1", name: "A", updatedAt: try #require(CardWalletJSON.parseDate("2026-11-21T09:30:00.818Z")))
        let encoded = String(decoding: try CardWalletJSON.encoder().encode(summary), as: UTF8.self)
        #expect(encoded.contains("\"updatedAt\":\"2026-11-21T09:30:00.818Z\""))
    }

    /// An error code is the server's text: shown escaped and cut short, kept raw for matching.
    @Test func unknownErrorCodesShowEscapedAndShort() throws {
        let raw = "E99\u{1B}]52;c;cm0=\u{07}\u{1B}[2J\u{85}\u{202E}" + String(repeating: "x", count: 100)
        let code = try CardWalletJSON.decoder().decode(
            ErrorCode.self,
            from: Data(
                "\"\(raw.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{07}", with: "\\u0007"))\""
                    .utf8))
        #expect(code.rawValue == raw)
        #expect(!code.isKnown)
        for text in [code.description, "\(code)", code.summary] {
            #expect(
                !text.unicodeScalars.contains {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
                })
            #expect(text.contains("E99^[]52;c;"))
            #expect(text.count < 60)
        }
        #expect(ErrorCode.accessTokenExpired.description == "E04")
    }
}
