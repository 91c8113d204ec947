import CardAPIContract

/// Checks a page of `GET /cards` as the server checks the cards it stores, so a broken or
/// hostile server cannot feed the client pages of any size or cards of any length.
///
/// A page holds at most the cards asked for; each card's id can be an id (letters, digits,
/// `-`, `_`, at most 64) and its name, title, company and email are within
/// ``CardModels/CardLimits`` (the server refuses longer ones with E01). Anything else is a
/// ``CardAPIError/unexpectedResponse(_:)`` naming the problem.
struct PageCheck: Sendable {
    /// `GET /v1/cards`, for the messages.
    let request: String

    /// Throws when `page` breaks the contract.
    ///
    /// - Parameters:
    ///   - page: the decoded page.
    ///   - asked: the cards asked for (the page's most).
    func check(_ page: APICardPage, asked: Int) throws(CardAPIError) {
        guard page.cards.count <= asked else {
            throw broken("it holds \(page.cards.count) cards, more than the \(asked) asked for.")
        }
        for (index, card) in page.cards.enumerated() {
            if let problem = Self.problem(with: card) {
                throw broken("card \(index + 1) of the page (offset \(page.offset)) \(problem).")
            }
        }
    }

    /// What is wrong with `card`, or `nil`.
    static func problem(with card: CardSummary) -> String? {
        do {
            _ = try CardAPIClient.checked(card.id)
        } catch {
            return "has an id that cannot be a card id (letters, digits, - and _, at most 64)"
        }
        guard card.revision.number != nil else {
            return "has a version that is not a whole number, as the card API's versions are"
        }
        let texts: [(CardField, String?)] = [
            (.name, card.name), (.title, card.title), (.company, card.company), (.email, card.email),
        ]
        for (field, text) in texts {
            guard let text else { continue }
            // Count lazily: a 100 kB field is refused without walking all of it.
            var count = 0
            for _ in text {
                count += 1
                if count > field.maxLength {
                    return "has a \(field.key) longer than \(field.maxLength) characters, the most a card may hold"
                }
            }
        }
        return nil
    }

    /// The error for a page at `offset` that added no card the list did not have.
    func repeatedPage(offset: Int) -> CardAPIError {
        broken(
            "the page at offset \(offset) holds only cards already listed (the server seems to ignore offset), "
                + "so the list would never end; cardwallet stopped after \(offset) cards.")
    }

    /// The error for a wallet that goes on past `maximum` cards.
    func tooManyCards(_ maximum: Int) -> CardAPIError {
        broken(
            "it goes on past \(Self.grouped(maximum)) cards, the most cardwallet lists, so it stopped reading.")
    }

    /// `100,000`.
    static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    private func broken(_ detail: String) -> CardAPIError {
        .unexpectedResponse(UnexpectedResponse(statusCode: 200, request: request, expected: "CardPage", detail: detail))
    }
}
