import CardAPIContract
import CardModels
import Foundation
import Testing

/// The kept vCard properties (``CardFields/vcardProperties``): on the wire, in forms, validated.
@Suite struct KeptPropertiesTests {
    @Test func theyRoundTripAndAreLeftOutWhenEmpty() throws {
        var fields = CardFields(name: "Ada", vcardProperties: ["TEL;TYPE=FAX:+1 555 0100", "X-SOCIAL:@ada"])
        let data = try CardWalletJSON.encoder().encode(fields)
        #expect(try CardWalletJSON.decoder().decode(CardFields.self, from: data) == fields)
        fields.vcardProperties = []
        let plain = try CardWalletJSON.encoder().encode(fields)
        let object = try #require(try JSONSerialization.jsonObject(with: plain) as? [String: Any])
        #expect(object["vcardProperties"] == nil)
    }

    @Test func theyTravelAsRepeatedFormParts() {
        let fields = CardFields(name: "Ada", vcardProperties: ["BDAY:--0412", "UID:urn:uuid:1"])
        let parts = CardForm.parts(for: fields)
        #expect(parts.filter { $0.name == "card.vcardProperties" }.map(\.value) == ["BDAY:--0412", "UID:urn:uuid:1"])
        let (back, problems) = CardForm.fields(from: parts)
        #expect(problems.isEmpty)
        #expect(back.vcardProperties == fields.vcardProperties)
    }

    @Test(arguments: [
        (["A:b\nC:d"], "must hold unfolded lines without NUL, CR or LF"),
        ([""], "must not hold empty lines"),
        (
            [String(repeating: "x", count: CardLimits.vcardPropertyMaxLength + 1)],
            "must hold lines of at most 32000 characters"
        ),
        (Array(repeating: "X-A:b", count: CardLimits.vcardPropertiesMaxCount + 1), "may hold at most 200 lines"),
        (
            Array(repeating: String(repeating: "ü", count: 30_000), count: 14),
            "must hold at most 400000 characters in all"
        ),
    ])
    func badLinesAreRefused(lines: [String], problem: String) {
        let fields = CardFields(name: "Ada", vcardProperties: lines)
        #expect(fields.validate()["vcardProperties"] == problem)
    }

    @Test func goodLinesAreFine() {
        let fields = CardFields(name: "Ada", vcardProperties: ["item1.X-ABLabel:_$!<Other>!$_", "NOTE:a\\, b"])
        #expect(fields.validate().isEmpty)
    }
}
