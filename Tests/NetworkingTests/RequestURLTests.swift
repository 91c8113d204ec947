import Foundation
import Testing

@testable import Networking

/// URLs are built from a target's base URL, path and query exactly as before the byte-level
/// fast paths: the same joins, escapes and query merging, ASCII or not.
@Suite struct RequestURLTests {
    static let cases: [(base: String, path: String, query: Parameters, expected: String)] = [
        ("http://h:1/v1", "/card/abc", [:], "http://h:1/v1/card/abc"),
        ("http://h:1/v1/", "/card/abc", [:], "http://h:1/v1/card/abc"),
        ("http://h:1/v1", "card/abc", [:], "http://h:1/v1/card/abc"),
        ("http://h:1/v1/", "card", ["x": "1"], "http://h:1/v1/card?x=1"),
        ("http://h:1/v1", "", ["x": "1"], "http://h:1/v1?x=1"),
        ("http://h/api?key=1", "/c", [:], "http://h/api/c?key=1"),
        ("http://h/api?key=1", "/c", ["x": "1"], "http://h/api/c?key=1&x=1"),
        ("http://h/api?", "/c", [:], "http://h/api/c"),
        ("http://h/api?", "/c", ["x": "1"], "http://h/api/c?&x=1"),
        ("http://h", "/café au lait", [:], "http://h/caf%C3%A9%20au%20lait"),
        ("http://h", "/\u{301}x", [:], "http://h//%CC%81x"),  // "/\u{301}" is one character, not "/"
        ("http://h", "/a?b#c%d", [:], "http://h/a%3Fb%23c%25d"),
    ]

    @Test(arguments: cases.indices) func urlsAreJoinedAndEscaped(_ index: Int) throws {
        let (base, path, query, expected) = Self.cases[index]
        let target = AdHoc(
            baseURL: try #require(URL(string: base)), path: path, method: .get,
            body: query.isEmpty ? .plain : .parameters(query, encoding: .queryString))
        let request = try RequestBuilder.request(for: target)
        #expect(request.url.absoluteString == expected)
    }

    @Test func asciiSearchMatchesCharacterSearch() {
        for text in ["", "a?b", "??", "http://h/p?q#f", "é?x", "x?\u{301}y", "a\r\n?b", "no mark"] {
            #expect(text.firstIndex(ofASCII: UInt8(ascii: "?")) == text.firstIndex(of: "?"), "\(text.debugDescription)")
            let sub = text.dropFirst()
            #expect(sub.firstIndex(ofASCII: UInt8(ascii: "?")) == sub.firstIndex(of: "?"))
        }
        #expect("abc".isASCII && !"é".isASCII && "".isASCII)
    }
}
