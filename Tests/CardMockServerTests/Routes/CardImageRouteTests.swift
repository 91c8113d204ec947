import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

extension API {
    /// `PUT /card/{id}/image` with a raw body; `nil` leaves a header out.
    func putImage(
        _ id: String, _ data: Data, contentType: String? = "image/png", ifMatch: String? = #""1""#, token: String,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let contentType { headers[.contentType] = contentType }
        if let ifMatch { headers[.ifMatch] = ifMatch }
        return try await send(.put, "/card/\(id)/image", token: token, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// `DELETE /card/{id}/image`; `nil` leaves `If-Match` out.
    func deleteImage(_ id: String, ifMatch: String? = #""1""#, token: String) async throws -> TestResponse {
        try await send(.delete, "/card/\(id)/image", token: token, headers: ifMatch.map { [.ifMatch: $0] } ?? [:])
    }

    /// The image bytes `GET /card/{id}/image` serves now, or `nil` for E05.
    func imageBytes(_ id: String, token: String) async throws -> Data? {
        let response = try await send(.get, "/card/\(id)/image", token: token)
        return response.status == .ok ? Data(response.body.readableBytesView) : nil
    }
}

@Suite struct CardImageRouteTests {
    @Test func putGivesACardWithoutAnImageItsFirstImage() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithoutImage
            let before = try await api.send(.get, "/card/\(id)", token: token).data(APICard.self)
            #expect(!before.hasImage && before.image == nil)
            clock.advance(by: .seconds(30))
            let response = try await api.putImage(id, TestImages.png, token: token)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == #""2""#)
            let card = try response.data(APICard.self)
            #expect(card.version == 2 && card.hasImage)
            #expect(card.image == CardImageInfo(contentType: "image/png", size: TestImages.png.count))
            #expect(card.updatedAt == clock.now && card.createdAt == before.createdAt)
            #expect(card.fields == before.fields, "the fields are untouched")
            #expect(try await api.send(.get, "/card/\(id)", token: token).data(APICard.self) == card)
            let listed = try await api.send(.get, "/cards", token: token).data(APICardPage.self).cards.first {
                $0.id == id
            }
            #expect(listed?.hasImage == true && listed?.revision == CardRevision(2))
            #expect(try await api.imageBytes(id, token: token) == TestImages.png)
        }
    }

    @Test func putReplacesTheImageAndGetServesTheNewBytesUnderANewETag() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            let old = try await api.send(.get, "/card/\(id)/image", token: token)
            #expect(old.headers[.eTag] == #""1""#)
            // Declared as PNG, but the bytes are a JPEG: the bytes decide, as in POST /card.
            let response = try await api.putImage(id, TestImages.jpeg, contentType: "image/png", token: token)
            let card = try response.data(APICard.self)
            #expect(card.image == CardImageInfo(contentType: "image/jpeg", size: TestImages.jpeg.count))
            let new = try await api.send(.get, "/card/\(id)/image", token: token)
            #expect(new.status == .ok)
            #expect(new.headers[.contentType] == "image/jpeg")
            #expect(new.headers[.eTag] == #""2""#, "a cache revalidating with the old tag gets the new bytes")
            #expect(new.headers[.cacheControl] == "private, no-cache")
            #expect(Data(new.body.readableBytesView) == TestImages.jpeg)
            #expect(Data(new.body.readableBytesView) != Data(old.body.readableBytesView))
            // And back to a PNG, declared as image/jpeg this time.
            let png = TestImages.png(size: 5000)
            let again = try await api.putImage(id, png, contentType: "image/jpeg", ifMatch: #""2""#, token: token)
            #expect(try again.data(APICard.self).image == CardImageInfo(contentType: "image/png", size: 5000))
            #expect(try await api.imageBytes(id, token: token) == png)
        }
    }

    @Test func theSameBytesAgainChangeNothing() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithoutImage
            let first = try await api.putImage(id, TestImages.png, token: token).data(APICard.self)
            let again = try await api.putImage(id, TestImages.png, ifMatch: #""2""#, token: token)
            #expect(again.status == .ok)
            #expect(again.headers[.eTag] == #""2""#)
            #expect(try again.data(APICard.self) == first)
        }
    }

    @Test func putAndDeleteNeedIfMatchExactlyAsPutCardDoes() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            let original = try #require(try await api.imageBytes(id, token: token))

            let missing = try await api.putImage(id, TestImages.jpeg, ifMatch: nil, token: token)
            #expect(try expectError(missing, .badRequest, status: 428).fields == ["If-Match": "is required"])
            let missingDelete = try await api.deleteImage(id, ifMatch: nil, token: token)
            #expect(try expectError(missingDelete, .badRequest, status: 428).fields == ["If-Match": "is required"])
            for malformed in ["7", "W/", ""] {
                let put = try await api.putImage(id, TestImages.jpeg, ifMatch: malformed, token: token)
                #expect(try expectError(put, .badRequest).fields?["If-Match"] != nil, "If-Match: \(malformed)")
                let delete = try await api.deleteImage(id, ifMatch: malformed, token: token)
                #expect(try expectError(delete, .badRequest).fields?["If-Match"] != nil, "If-Match: \(malformed)")
            }
            for stale in [#""2""#, #"W/"1""#, #""0", "5""#] {
                let put = try await api.putImage(id, TestImages.jpeg, ifMatch: stale, token: token)
                try expectError(put, .versionConflict)
                #expect(put.headers[.eTag] == #""1""#)
                let delete = try await api.deleteImage(id, ifMatch: stale, token: token)
                try expectError(delete, .versionConflict)
                #expect(delete.headers[.eTag] == #""1""#)
            }
            // Nothing of that changed the card or its image.
            let card = try await api.send(.get, "/card/\(id)", token: token).data(APICard.self)
            #expect(card.version == 1 && card.image?.contentType == "image/png")
            #expect(try await api.imageBytes(id, token: token) == original)
            // A list that names the current version, and `*`, both match.
            #expect(
                try await api.putImage(id, TestImages.jpeg, ifMatch: #""0", "1""#, token: token).data(APICard.self)
                    .version
                    == 2)
            #expect(try await api.deleteImage(id, ifMatch: "*", token: token).data(APICard.self).version == 3)
        }
    }

    @Test(arguments: [
        ("text/plain", TestImages.png), ("application/octet-stream", TestImages.png), ("image/gif", TestImages.gif),
        ("multipart/form-data; boundary=x", TestImages.png), ("image/png", TestImages.gif), ("image/jpeg", Data()),
        ("image/png", Data("hello, I am a text file, not a picture".utf8)), ("image/png", Data([0x89, 0x50])),
    ])
    func bodiesThatAreNotAPNGOrJPEGAreE09AndChangeNothing(contentType: String, body: Data) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            let original = try await api.imageBytes(id, token: token)
            try expectError(
                try await api.putImage(id, body, contentType: contentType, token: token), .unsupportedMediaType)
            #expect(try await api.send(.get, "/card/\(id)", token: token).data(APICard.self).version == 1)
            #expect(try await api.imageBytes(id, token: token) == original)
        }
    }

    @Test func anImageWithoutAContentTypeIsE09() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let response = try await api.putImage(
                Seeds.demoCardWithImage, TestImages.png, contentType: nil, token: token)
            #expect(try expectError(response, .unsupportedMediaType).message.contains("image/png or image/jpeg"))
        }
    }

    @Test func imagesOverTheLimitAreE08WhetherDeclaredOrStreamed() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.limits.maxImageBytes = 4096
        try await withRouter(configuration) { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            let original = try await api.imageBytes(id, token: token)
            let tooLarge = TestImages.png(size: 4097)
            // The router test client sends no Content-Length of its own: this one is streamed.
            let streamed = try await api.putImage(id, tooLarge, token: token)
            #expect(try expectError(streamed, .payloadTooLarge).message.contains("4096"))
            let declared = try await api.putImage(
                id, tooLarge, token: token, headers: [.contentLength: String(tooLarge.count)])
            try expectError(declared, .payloadTooLarge)
            #expect(try await api.imageBytes(id, token: token) == original)
            // Exactly at the limit is fine.
            let atLimit = TestImages.png(size: 4096)
            #expect(try await api.putImage(id, atLimit, token: token).data(APICard.self).image?.size == 4096)
            #expect(try await api.imageBytes(id, token: token) == atLimit)
        }
    }

    @Test func headersAreJudgedBeforeTheBody() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.limits.maxImageBytes = 4096
        try await withRouter(configuration) { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            let big = TestImages.png(size: 8192)
            // E05 before anything else, then the type, then the declared size, then If-Match.
            try expectError(
                try await api.putImage("nope", TestImages.gif, contentType: "text/plain", ifMatch: nil, token: token),
                .cardNotFound)
            try expectError(
                try await api.putImage(
                    id, big, contentType: "text/plain", ifMatch: nil, token: token, headers: [.contentLength: "8192"]),
                .unsupportedMediaType)
            try expectError(
                try await api.putImage(id, big, ifMatch: nil, token: token, headers: [.contentLength: "8192"]),
                .payloadTooLarge)
            try expectError(
                try await api.putImage(id, TestImages.gif, ifMatch: nil, token: token), .badRequest, status: 428)
            // A stale version is refused before the body is read: the GIF is never looked at.
            try expectError(
                try await api.putImage(id, TestImages.gif, ifMatch: #""9""#, token: token), .versionConflict)
            // The body is judged last.
            try expectError(try await api.putImage(id, TestImages.gif, token: token), .unsupportedMediaType)
        }
    }

    @Test func deleteRemovesTheImageAndASecondDeleteChangesNothing() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let token = try await api.login().accessToken
            let id = Seeds.demoCardWithImage
            clock.advance(by: .seconds(60))
            let response = try await api.deleteImage(id, token: token)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == #""2""#)
            let card = try response.data(APICard.self)
            #expect(!card.hasImage && card.image == nil && card.version == 2 && card.updatedAt == clock.now)
            #expect(!response.text.contains(#""image""#), "no image info is sent for a card without one")
            try expectError(try await api.send(.get, "/card/\(id)/image", token: token), .cardNotFound)
            #expect(try await api.send(.get, "/card/\(id)", token: token).data(APICard.self) == card)

            clock.advance(by: .seconds(60))
            let again = try await api.deleteImage(id, ifMatch: #""2""#, token: token)
            #expect(again.status == .ok)
            #expect(try again.data(APICard.self) == card, "a card without an image is answered unchanged")
            let never = try await api.deleteImage(Seeds.demoCardWithoutImage, token: token)
            #expect(try never.data(APICard.self).version == 1)
        }
    }

    @Test func anotherUsersCardOrAMissingOneIsE05ForBothRoutes() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            for id in [Seeds.minjiCard, "no-such-card", "..%2Fcards", String(repeating: "x", count: 65)] {
                try expectError(try await api.putImage(id, TestImages.png, token: token), .cardNotFound)
                try expectError(try await api.deleteImage(id, token: token), .cardNotFound)
            }
            try expectError(
                try await api.putImage(Seeds.minjiCard, TestImages.png, ifMatch: nil, token: token), .cardNotFound)
            try expectError(
                try await api.send(.put, "/card/demo-01/image", headers: [.contentType: "image/png", .ifMatch: "*"]),
                .accessTokenInvalid)
            // Minji's card is untouched.
            let minji = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword).accessToken
            #expect(try await api.send(.get, "/card/\(Seeds.minjiCard)", token: minji).data(APICard.self).version == 1)
        }
    }

    @Test func theRoutesAreCountedAndOtherMethodsAre405() async throws {
        try await withRouter { api, controls in
            let token = try await api.login().accessToken
            _ = try await api.putImage(Seeds.demoCardWithoutImage, TestImages.png, token: token)
            _ = try await api.deleteImage(Seeds.demoCardWithoutImage, ifMatch: #""2""#, token: token)
            #expect(controls.statistics.count("PUT /card/{cardId}/image", status: 200) == 1)
            #expect(controls.statistics.count("DELETE /card/{cardId}/image", status: 200) == 1)
            let post = try await api.send(.post, "/card/demo-01/image", token: token)
            try expectError(post, .badRequest, status: 405)
            #expect(post.headers[.allow] == "GET, PUT, DELETE")
        }
    }
}
