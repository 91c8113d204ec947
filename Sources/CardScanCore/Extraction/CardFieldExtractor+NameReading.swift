import CardModels

extension CardFieldExtractor {
    /// The contacts found on `page`'s lines, and the lines (or what is left of them) that are
    /// not contacts; notes on addresses left out go to `notes`.
    static func contactsAndRest(of page: OCRPage, finder: ContactFinder, notes: inout Notes) -> (
        [ContactHit], [ScanLine]
    ) {
        var contacts: [ContactHit] = []
        var rest: [ScanLine] = []
        for line in ScanLineBuilder.lines(from: page) {
            let found = finder.contacts(in: line)
            contacts += found.hits
            for note in found.dropped { notes.add(nil, note) }
            if found.hits.isEmpty && found.dropped.isEmpty {
                if !(line.tokens.count == 1 && ScanRules.labels[line.text.ruleKey] != nil) { rest.append(line) }
            } else if let remainder = found.rest {
                rest.append(ScanLine(words: line.words, text: remainder, index: line.index))
            }
        }
        return (contacts, rest)
    }

    /// The name of the second reading, when ``NameReadings`` prefers it to the one `first`
    /// chose, with its words' boxes brought to `page`'s scale.
    func givenName(
        from second: OCRPage, over page: OCRPage, first: FieldChoice, finder: ContactFinder, email: String?,
        organisation: String?
    ) -> GivenName? {
        var ignored = Notes()
        let (_, rest) = Self.contactsAndRest(of: second, finder: finder, notes: &ignored)
        var other = FieldChoice(lines: rest, email: email, organisation: organisation)
        other.choose()
        guard let secondReading = Self.reading(other), let (_, line) = other.chosen.first(where: { $0.0 == .name })
        else { return nil }
        let firstReading = Self.reading(first)
        guard NameReadings.prefersSecond(first: firstReading, second: secondReading) else { return nil }
        let scale = Double(page.width) / Double(max(1, second.width))
        let words = line.words.map { word in
            OCRWord(
                text: word.text,
                box: OCRBox(
                    x: Int(Double(word.box.x) * scale), y: Int(Double(word.box.y) * scale),
                    width: Int(Double(word.box.width) * scale), height: Int(Double(word.box.height) * scale)),
                confidence: word.confidence)
        }
        let firstName = firstReading?.name ?? ""
        let note =
            firstName.isEmpty || firstReading?.confidence == nil
            ? "read only when the photo was read again at a smaller scale, where large text reads better: check it"
            : "read as “\(firstName)”; read again at a smaller scale, where large text reads better: check it"
        return GivenName(line: ScanLine(words: words, text: line.text, index: -1), note: note)
    }

    /// What a choice made of the name and the fields beside it; `nil` without a name.
    private static func reading(_ choice: FieldChoice) -> NameReadings.Reading? {
        guard let (_, name) = choice.chosen.first(where: { $0.0 == .name }) else { return nil }
        let others = choice.chosen.filter { [.company, .title, .department].contains($0.0) }.map(\.1.text)
        return NameReadings.Reading(
            name: name.text, confidence: name.words.isEmpty ? nil : name.confidence, others: others)
    }
}
