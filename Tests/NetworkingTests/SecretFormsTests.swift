import Foundation
import Networking
import Testing

/// A secret is hidden in every form an error or a message may quote it in.
@Suite struct SecretFormsTests {
    /// A token with a line break, as a hostile server sent it (issue 13).
    static let token = "cwa_CANARYform0123456789\n"

    @Test func everyQuotedFormOfATokenIsHidden() {
        let quoted = [
            "invalidHeaderFieldValues([\"Bearer cwa_CANARYform0123456789\\n\"])",  // Swift's escaping
            "token cwa_CANARYform0123456789^J here",  // TerminalText's
            "{\"t\":\"cwa_CANARYform0123456789\\n\"}",  // JSON's
            "?t=cwa_CANARYform0123456789%0A",  // percent-encoding
            "raw cwa_CANARYform0123456789\n end",
        ]
        for text in quoted {
            let scrubbed = Redaction.scrub(text, hiding: ["Bearer " + Self.token])
            #expect(!scrubbed.contains("CANARYform"), "\(scrubbed)")
            #expect(scrubbed.contains(Redaction.placeholder), "\(scrubbed)")
        }
    }

    @Test func plainTokensAndShortValuesAreHandledAsBefore() {
        #expect(Redaction.scrub("a cwa_plain0123 b", hiding: ["cwa_plain0123"]) == "a <private> b")
        // Too short to hide in free text without mangling it.
        #expect(Redaction.scrub("abc def", hiding: ["abc"]) == "abc def")
        #expect(Redaction.scrub("nothing here", hiding: ["Bearer cwa_other0123\n"]) == "nothing here")
    }

    /// A transport failure's reason never quotes the request's token, however the underlying
    /// error wrote it, and is terminal-safe.
    @Test func transportFailureReasonsAreScrubbedAndEscaped() {
        var request = Request(method: .get, url: URL(string: "http://127.0.0.1:9/v1/cards")!)
        request.headers["Authorization"] = "Bearer " + Self.token
        let failure = TransportFailure(
            kind: .other, request: request,
            reason: "HTTPClientError.invalidHeaderFieldValues([\"Bearer cwa_CANARYform0123456789\\n\"]) \u{1B}[2J",
            underlying: nil)
        #expect(!failure.reason.contains("CANARYform"), "\(failure.reason)")
        #expect(!failure.description.contains("CANARYform"))
        #expect(!failure.reason.unicodeScalars.contains("\u{1B}"))
    }
}
