import Foundation
import NIOCore
import Testing

@testable import Networking

/// The byte-level fast paths of redaction and body previews give exactly what the general
/// (character-by-character, copy-first) code gives.
@Suite struct LogFastPathTests {
    static let values = [
        "", "abc", "abcd", "Bearer abc.def-123", "Basic dXNlcjpwYXNz", "a,b;cdef ghij", "   ", "x y",
        "token1,token2;token3 token4", " lead trail ", ";;;;abcd;;;;", "abcd\r\nefgh", "ab\r\ncd",
        "café secret", "한국어 비밀번호 값", "e\u{301}e\u{301} abcd", "👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦 x",
    ]

    @Test(arguments: values) func secretsAreCollectedAsCharacterCountingDoes(_ value: String) {
        var fast: [String] = []
        var reference: [String] = []
        Redaction.collectPlain(value, into: &fast)
        Redaction.collectCharacters(value, into: &reference)
        #expect(fast == reference)
    }

    @Test func bearerTokensAndTheirPartsAreCollected() {
        var secrets: [String] = []
        Redaction.collect("Bearer abc.def-123", into: &secrets)
        // The value, its parts, then the value's percent-encoded forms (its space) and its long
        // run of characters no escaping changes.
        #expect(
            secrets == [
                "Bearer abc.def-123", "Bearer", "abc.def-123", "Bearer%20abc.def-123", "Bearer%20abc.def-123",
                "abc.def-123",
            ])
        secrets = []
        Redaction.collect("abc", into: &secrets)
        #expect(secrets.isEmpty)
        // A part with a character a message escapes gets its escaped forms too.
        secrets = []
        Redaction.collect("Bearer ab\ncdefgh", into: &secrets)
        #expect(secrets.contains("ab^Jcdefgh"))
        #expect(secrets.contains("ab%0Acdefgh"))
    }

    /// The first occurrence by brute force: the oracle for the `memchr` search.
    static func naiveFirstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where Array(haystack[index..<(index + needle.count)]) == needle {
            return index..<(index + needle.count)
        }
        return nil
    }

    @Test func byteSearchFindsWhatBruteForceFinds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            let start = Int.random(in: 0...max(0, haystack.count), using: &generator)
            let expected = Self.naiveFirstRange(of: needle, in: haystack, from: start)
            #expect(ByteSearch.firstRange(of: needle, in: haystack, from: start) == expected)
            // A slice keeps the base collection's indices.
            let prefix: [UInt8] = [9, 9, 9]
            let slice = (prefix + haystack)[3...]
            let shifted = expected.map { ($0.lowerBound + 3)..<($0.upperBound + 3) }
            #expect(ByteSearch.firstRange(of: needle, in: slice, from: start + 3) == shifted)
        }
    }

    @Test func byteSearchWorksOnByteBufferViews() {
        var buffer = ByteBuffer(string: "xxxxBearer abc")
        buffer.moveReaderIndex(forwardBy: 2)
        let view = buffer.readableBytesView
        let range = ByteSearch.firstRange(of: Array("abc".utf8), in: view)
        #expect(range.map { Array(view[$0]) } == Array("abc".utf8))
        #expect(ByteSearch.firstRange(of: Array("xxxx".utf8), in: view) == nil)
    }

    @Test func scrubbingReplacesEveryOccurrenceAtAnyPosition() {
        let secrets = ["Bearer s3cr3t-value", "s3cr3t-value"]
        let text = "s3cr3t-value at the start, Bearer s3cr3t-value inside, s3cr3t-values, end s3cr3t-value"
        #expect(
            Scrubber.scrub(text, secrets: secrets)
                == "<private> at the start, <private> inside, <private>s, end <private>")
        #expect(Scrubber.scrub("nothing here", secrets: secrets) == "nothing here")
    }

    static let bodies: [(String, [UInt8])] = [
        ("application/json", Array(#"{"id":"a","accessToken":"tok-123456","note":"tok-123456 again"}"#.utf8)),
        ("application/json", Array(#"{"id":"card","name":"Ada","company":"Bearer xyz-secret"}"#.utf8)),
        ("application/x-www-form-urlencoded", Array("user=ada&password=hunter22&x=1".utf8)),
        ("text/plain", Array("plain text with xyz-secret and é".utf8)),
        ("image/png", [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3]),
        ("text/plain", Array("cut in the middle of é".utf8).dropLast()),
    ]

    @Test func previewsOfDataAndOfBuffersAreTheSame() {
        for limit in [0, 5, 24, 4096] {
            let previewer = BodyPreviewer(redaction: .default, limit: limit)
            for (contentType, bytes) in Self.bodies {
                for type in [contentType, nil] {
                    var fromData = ["Bearer xyz-secret", "xyz-secret"]
                    var fromBuffer = fromData
                    let data = previewer.preview(Data(bytes), contentType: type, secrets: &fromData)
                    let buffer = previewer.preview(ByteBuffer(bytes: bytes), contentType: type, secrets: &fromBuffer)
                    #expect(data == buffer, "\(contentType) limit \(limit)")
                    #expect(fromData == fromBuffer)
                    #expect(data?.contains("xyz-secret") != true)
                    #expect(data?.contains("tok-123456") != true)
                    if type != nil { #expect(data?.contains("hunter22") != true) }  // a form by name
                }
            }
        }
    }

    @Test func urlRedactionFindsTheQueryInASCIIAndOtherText() {
        let redaction = Redaction.default
        let ascii = URL(string: "http://u:p4ssw0rd@h:1/p?token=abc&a=1#frag?token=x")!
        #expect(redaction.redact(url: ascii) == "http://u:<private>@h:1/p?token=<private>&a=1#frag?token=x")
        var secrets: [String] = []
        _ = redaction.redact(url: ascii, collectingSecretsInto: &secrets)
        #expect(secrets == ["p4ssw0rd"])  // `abc` is too short to scrub from free text
        let plain = URL(string: "http://h/p")!
        #expect(redaction.redact(url: plain) == "http://h/p")
        let noQuery = URL(string: "http://h/p#a?b")!
        #expect(redaction.redact(url: noQuery) == "http://h/p#a?b")
        if let unicode = URL(string: "http://h/é?secret=1234&b=é") {
            let redacted = redaction.redact(url: unicode)
            #expect(!redacted.contains("1234"))
            #expect(redacted.contains("secret=<private>"))
        }
    }

    @Test func caseInsensitiveSearchFindsWhatBruteForceFinds() {
        let sets = [
            ["token", "password", "secret"], ["a"], ["ab", "b"], ["TOKEN"], ["x-api-", "ke"], ["é", "ss"], [], [""],
        ]
        let alphabet = Array("aAbBsStTxX-kKeEoOnN".utf8) + [0xC3, 0xA9, 0x00, 0xFF]
        var generator = SystemRandomNumberGenerator()
        for words in sets {
            let needles = NeedleSet(words)
            let lowered = words.map { Array($0.lowercased().utf8) }.filter { !$0.isEmpty }
            for _ in 0..<3000 {
                let count = Int.random(in: 0...24, using: &generator)
                var bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
                if let word = lowered.randomElement(using: &generator), Bool.random(using: &generator) {
                    let at = Int.random(in: 0...bytes.count, using: &generator)
                    bytes.insert(contentsOf: word.map { Bool.random(using: &generator) ? $0 & ~0x20 : $0 }, at: at)
                }
                let folded = bytes.map(ByteSearch.lower)
                let expected = lowered.contains { needle in
                    folded.count >= needle.count
                        && (0...(folded.count - needle.count)).contains {
                            Array(folded[$0..<($0 + needle.count)]) == needle
                        }
                }
                #expect(ByteSearch.containsCaseInsensitive(bytes, anyOf: needles) == expected, "\(words) \(bytes)")
            }
        }
    }

    @Test func repeatedSecretsAreScrubbedOnceLongestFirst() {
        let secrets = ["abcd1234", "Bearer abcd1234", "abcd1234", "Bearer", "wxyz", "wxyz"]
        let text = "Bearer abcd1234 then abcd1234, wxyz and Bearer alone"
        #expect(Scrubber.scrub(text, secrets: secrets) == "<private> then <private>, <private> and <private> alone")
        #expect(Scrubber.scrub(Array(text.utf8), secrets: []) == Array(text.utf8))
    }
}
