import CardModels
import Foundation
import Networking
import Synchronization
import Testing

@testable import CardDAV

/// A card's `PHOTO` given by URI: shown only from the server's own origin, never asked for
/// anywhere else.
@Suite struct PictureLinkTests {
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 24)
    private static let origin = ServerOrigin(StubDAV.server)

    private static func resource(photo: String) -> DAVResource {
        DAVResource(
            href: "/alice/contacts/a.vcf", etag: "\"1\"",
            vcard: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\n\(photo)\r\nEND:VCARD\r\n")
    }

    @Test(
        "a link on the server's own origin is the card's picture; elsewhere it is not",
        arguments: [
            ("PHOTO;VALUE=uri:https://dav.example.com/alice/pics/ada.png", true),
            ("PHOTO;VALUE=uri:/alice/pics/ada.png", true),
            ("PHOTO;VALUE=uri:../pics/ada.png", true),
            ("PHOTO;VALUE=uri:https://tracker.example.net/ada.png", false),
            ("PHOTO;VALUE=uri:http://dav.example.com/alice/pics/ada.png", false),
            ("PHOTO;VALUE=uri:https://dav.example.com:8443/ada.png", false),
            ("PHOTO;VALUE=uri:file:///etc/passwd", false),
        ])
    func linkOnOrigin(photo: String, shown: Bool) throws {
        let card = try #require(
            try CardDAVBackend.card(from: Self.resource(photo: photo), id: "a.vcf", origin: Self.origin))
        #expect(card.hasImage == shown)
        #expect(card.source?.contains(photo) == true, "the link is kept as it was")
    }

    @Test("the picture is read from the server's origin, checked for size and format")
    func readsFromOrigin() async throws {
        let asked = Mutex<[String]>([])
        let transport = StubTransport { request in
            asked.withLock { $0.append(request.url.absoluteString) }
            switch request.url.path {
            case "/alice/pics/ada.png": return StubResponse(statusCode: 200, body: Data(Self.png))
            case "/alice/pics/big.png":
                return StubResponse(statusCode: 200, body: Data(Self.png + [UInt8](repeating: 0, count: 100)))
            case "/alice/pics/text.png": return StubResponse(statusCode: 200, body: Data("<html>".utf8))
            default: return StubResponse(statusCode: 404, body: Data())
            }
        }
        let client = StubDAV.client(transport)
        let picture = try await client.picture(
            at: URL(string: "https://dav.example.com/alice/pics/ada.png")!, maximumBytes: 64)
        #expect(picture.bytes == Self.png)
        #expect(picture.format == .png)
        for (path, problem) in [("big.png", "over the wallet's 64"), ("text.png", "not a PNG or JPEG")] {
            await #expect {
                _ = try await client.picture(
                    at: URL(string: "https://dav.example.com/alice/pics/\(path)")!, maximumBytes: 64)
            } throws: { String(describing: $0).contains(problem) }
        }
        await #expect {
            _ = try await client.picture(
                at: URL(string: "https://dav.example.com/alice/pics/none.png")!, maximumBytes: 64)
        } throws: { ($0 as? CardDAVError)?.isNotFound == true }
        // Another origin: refused before anything is sent.
        await #expect {
            _ = try await client.picture(at: URL(string: "https://tracker.example.net/ada.png")!, maximumBytes: 64)
        } throws: { if case .foreignLocation = $0 as? CardDAVError { true } else { false } }
        #expect(asked.withLock { $0 }.allSatisfy { $0.hasPrefix("https://dav.example.com/") })
    }
}
