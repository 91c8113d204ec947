import Testing

@testable import CardScanCore

/// The digit groups of a phone number put back from its characters' boxes.
@Suite("Digit groups from character boxes")
struct DigitGroupTests {
    /// The characters of `printed` as the OCR boxes them: every character `pitch` pixels from
    /// the last (a space adds `space`), digits `height` tall and 60 % of the pitch wide (a `1`
    /// a third), a `-` a fifth of the height and centred, a `.` a sixth on the line; `jitter`
    /// moves each box's edges by up to that many pixels, the same way on every run.
    static func characters(
        _ printed: String, pitch: Int = 20, height: Int = 28, space: Int = 9, jitter: Int = 0
    ) -> [OCRCharacter] {
        var x = 100
        var characters: [OCRCharacter] = []
        for (index, character) in printed.enumerated() {
            if character == " " {
                x += space
                continue
            }
            let wiggle = jitter == 0 ? 0 : (index * 7 % (2 * jitter + 1)) - jitter
            let width = character == "1" ? pitch / 3 : pitch * 3 / 5
            let box: OCRBox
            switch character {
            case "-": box = OCRBox(x: x + pitch / 5, y: 50 + height * 2 / 5, width: pitch * 3 / 5, height: height / 5)
            case ".": box = OCRBox(x: x + pitch / 3, y: 50 + height * 5 / 6, width: pitch / 4, height: height / 6)
            default:
                box = OCRBox(x: x + (pitch - width) / 2 + wiggle, y: 50 - wiggle, width: width - wiggle, height: height)
            }
            characters.append(OCRCharacter(text: String(character), box: box))
            x += pitch
        }
        return characters
    }

    /// What the word read as `read` (the characters of `printed`, spaces dropped) becomes.
    static func regrouped(_ printed: String, read: String? = nil, jitter: Int = 0, space: Int = 9) -> [String] {
        var characters = characters(printed, space: space, jitter: jitter)
        if let read {
            for (index, character) in read.filter({ $0 != " " }).enumerated() {
                characters[index].text = String(character)
            }
        }
        let box = characters.dropFirst().reduce(characters[0].box) { $0.union($1.box) }
        let word = OCRWord(text: characters.map(\.text).joined(), box: box, confidence: 91)
        return DigitGroups.regrouped(word, characters: characters).map(\.text)
    }

    @Test(
        arguments: [
            ("1384 8120", ["1384", "8120"]),
            ("12 34", ["12", "34"]),
            ("24 76 73 49", ["24", "76", "73", "49"]),
            ("2 1384 8120", ["2", "1384", "8120"]),
            ("+82 2 1384 8120", ["+82", "2", "1384", "8120"]),
            ("359 39 95", ["359", "39", "95"]),
            ("02-751-7175", ["02-751-7175"]),
            ("555-0142", ["555-0142"]),
            ("20261128", ["20261128"]),
            ("1111 1111", ["1111", "1111"]),
            ("1001 7111", ["1001", "7111"]),
        ])
    func groupsComeBack(_ printed: String, groups: [String]) {
        #expect(Self.regrouped(printed) == groups)
        #expect(Self.regrouped(printed, jitter: 2) == groups, "with boxes off by up to 2 pixels")
    }

    @Test("the 1's narrow box is no gap", arguments: ["11111111", "1010101", "71117", "+4411111"])
    func narrowOnesStayTogether(_ printed: String) {
        #expect(Self.regrouped(printed) == [printed])
        #expect(Self.regrouped(printed, jitter: 2) == [printed])
    }

    @Test("a gap of a tenth of a digit is scatter, not a space")
    func smallGapIsNoBreak() {
        #expect(Self.regrouped("1384 8120", space: 2) == ["13848120"])
    }

    @Test(
        "too few steps inside a group to measure a break against",
        arguments: ["12 3-4", "1 2-34", "+1 2 (34)", "1 2 3", "1 2 3 4"])
    func tooFewSteps(_ printed: String) {
        #expect(Self.regrouped(printed) == [printed.filter { $0 != " " }])
    }

    @Test("words other than numbers are left alone", arguments: ["Suite 1400", "A1 2345", "12층 3456"])
    func notNumbers(_ printed: String) {
        #expect(Self.regrouped(printed) == [printed.filter { $0 != " " }])
    }

    @Test(
        "a dash read as a digit is a dash",
        arguments: [
            ("02-751-7175", "02-75127175", ["02-751-7175"]),
            ("02-751-7175", "02=75117175", ["02=751-7175"]),
            ("+82 2-616-7352", "+82 21616 17352", ["+82", "2-616-7352"]),
        ])
    func dashReadAsDigit(_ printed: String, read: String, groups: [String]) {
        #expect(Self.regrouped(printed, read: read) == groups)
    }

    @Test("a dot read as a digit stays what it was read as: it sits on the line")
    func dotIsNoDash() {
        #expect(Self.regrouped("415.555.0142", read: "415455540142") == ["415455540142"])
    }

    @Test("characters that do not spell the word leave it as it is")
    func mismatchedCharacters() {
        let characters = Self.characters("1384 8120")
        let word = OCRWord(text: "13848121", box: OCRBox(x: 100, y: 50, width: 169, height: 28), confidence: 90)
        #expect(DigitGroups.regrouped(word, characters: characters) == [word])
    }

    @Test("each group gets the box around its characters and the word's confidence")
    func groupBoxes() {
        let characters = Self.characters("12 3456")
        let word = OCRWord(text: "123456", box: OCRBox(x: 100, y: 50, width: 129, height: 28), confidence: 77)
        let groups = DigitGroups.regrouped(word, characters: characters)
        #expect(groups.map(\.text) == ["12", "3456"])
        #expect(groups.map(\.confidence) == [77, 77])
        #expect(groups[0].box == characters[0].box.union(characters[1].box))
        #expect(groups[1].box.x == characters[2].box.x)
        #expect(groups[1].box.maxX == characters[5].box.maxX)
    }
}
