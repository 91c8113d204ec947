import CardAPIContract
import CardModels
import Foundation
import Testing

@Suite struct CardCodingTests {
    let sample = Card(
        id: "c_abc123",
        fields: CardFields(
            name: "김민지", title: "Engineer", company: "Acme", email: "minji@example.com",
            funFacts: ["likes tea"], tags: ["work"], defaultImage: 3),
        hasImage: true, image: CardImageInfo(contentType: "image/png", size: 1234),
        createdAt: Date(timeIntervalSince1970: 1_700_000_000),
        updatedAt: Date(timeIntervalSince1970: 1_700_000_000.5), revision: CardRevision(7))

    @Test func cardFieldsSitAtTheTopLevel() throws {
        let data = try CardWalletJSON.encoder().encode(sample)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["name"] as? String == "김민지")
        #expect(object["id"] as? String == "c_abc123")
        #expect(object["version"] as? Int == 7)
        #expect(object["updatedAt"] as? String == "2023-11-14T22:13:20.500Z")
        #expect(object["fields"] == nil)
        #expect(object["title"] as? String == "Engineer")
        #expect(object["department"] == nil, "absent optional fields are omitted")
    }

    @Test func cardRoundTrips() throws {
        let data = try CardWalletJSON.encoder().encode(sample)
        let decoded = try CardWalletJSON.decoder().decode(Card.self, from: data)
        #expect(decoded == sample)
        #expect(APICard(decoded).entityTag == "\"7\"")
    }

    @Test func datesDecodeWithAndWithoutFractionalSeconds() throws {
        #expect(CardWalletJSON.parseDate("2026-11-21T09:30:00Z") == Date(timeIntervalSince1970: 1_795_253_400))
        #expect(CardWalletJSON.parseDate("2026-11-21T09:30:00.250Z") == Date(timeIntervalSince1970: 1_795_253_400.25))
        #expect(CardWalletJSON.parseDate("yesterday") == nil)
    }

    @Test func envelopesRoundTrip() throws {
        let failure = ErrorEnvelope(
            status: 400, errorCode: .badRequest, message: "bad", fields: ["name": "is required"])
        let data = try CardWalletJSON.encoder().encode(failure)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(
            text == #"{"errorCode":"E01","fields":{"name":"is required"},"message":"bad","status":400,"success":false}"#
        )
        #expect(try CardWalletJSON.decoder().decode(ErrorEnvelope.self, from: data) == failure)

        let success = SuccessEnvelope(data: EmptyPayload())
        let successText = String(decoding: try CardWalletJSON.encoder().encode(success), as: UTF8.self)
        #expect(successText == #"{"data":{},"message":"OK","status":200,"success":true}"#)
    }

    @Test func unknownErrorCodesDecodeAndSayWhatTheyAre() throws {
        let data = Data(#"{"status":418,"success":false,"errorCode":"E42","message":"teapot"}"#.utf8)
        let envelope = try CardWalletJSON.decoder().decode(ErrorEnvelope.self, from: data)
        #expect(envelope.errorCode.rawValue == "E42")
        #expect(!envelope.errorCode.isKnown)
        #expect(envelope.errorCode.httpStatus == nil)
        #expect(envelope.errorCode.summary == "unknown error code E42")
        #expect(ErrorCode.refreshTokenExpired.httpStatus == 401)
        #expect(ErrorCode.allKnown.count == 11)
    }

    @Test func tokenGrantNeverShowsItsTokens() {
        let grant = TokenGrant(
            accessToken: "CANARY-ACCESS", refreshToken: "CANARY-REFRESH",
            accessTokenExpiresAt: .now, refreshTokenExpiresAt: .now,
            user: User(id: "u1", email: "demo@cardwallet.dev", name: "Demo"))
        for text in [grant.description, grant.debugDescription, String(describing: grant), "\(grant)"] {
            #expect(!text.contains("CANARY"))
        }
    }

    @Test func entityTagsParse() {
        #expect(EntityTag.version(from: "\"12\"") == 12)
        #expect(EntityTag.version(from: "W/\"3\"") == 3)
        #expect(EntityTag.version(from: " 5 ") == 5)
        #expect(EntityTag.version(from: "\"abc\"") == nil)
        #expect(EntityTag.version(from: "") == nil)
    }
}

@Suite struct CardRevisionTests {
    @Test func aCardAPIVersionIsANumberAndAnETagAString() throws {
        let encoder = CardWalletJSON.encoder()
        #expect(String(decoding: try encoder.encode(CardRevision(7)), as: UTF8.self) == "7")
        #expect(
            String(decoding: try encoder.encode(CardRevision(rawValue: "\"6f1c\"")), as: UTF8.self) == #""\"6f1c\"""#)
        // Only a number's own spelling is written as a number, so every revision reads back equal.
        for raw in ["0", "7", "123456", "007", "-1", "1e3", "", "W/\"x\"", "99999999999999999999"] {
            let revision = CardRevision(rawValue: raw)
            let back = try CardWalletJSON.decoder().decode(CardRevision.self, from: encoder.encode(revision))
            #expect(back == revision, "\(raw)")
        }
        #expect(CardRevision(rawValue: "007").number == nil)
        #expect(CardRevision(rawValue: "12").number == 12)
    }

    @Test func revisionsAreComparedOnlyForEquality() {
        #expect(CardRevision(rawValue: "\"a\"") != CardRevision(rawValue: "\"b\""))
        #expect(CardRevision(3) == CardRevision(rawValue: "3"))
        #expect(CardRevision(rawValue: "\u{1B}[2J").description == TerminalText.escaped("\u{1B}[2J"))
    }
}
