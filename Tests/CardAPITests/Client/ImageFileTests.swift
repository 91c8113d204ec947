import CardModels
import Foundation
import Networking
import TestSupport
import Testing

@testable import CardAPI

/// Image files are checked before anything is sent.
@Suite struct ImageFileTests {
    @Test func pngAndJPEGAreRecognisedByTheirFirstBytes() throws {
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        let png = try ImageFile(validating: URL(fileURLWithPath: folder.write(Fixtures.png, to: "named.jpg")))
        #expect(png.format == .png)
        #expect(png.byteCount == Fixtures.png.count)
        #expect(png.uploadFileName == "image.png")
        let jpeg = try ImageFile(validating: URL(fileURLWithPath: folder.write(Fixtures.jpeg, to: "no-extension")))
        #expect(jpeg.format == .jpeg)
    }

    @Test func everyProblemIsNamed() throws {
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        let missing = folder.url("missing.png")
        let text = URL(fileURLWithPath: try folder.write(Data("just text, honest".utf8), to: "fake.png"))
        let empty = URL(fileURLWithPath: try folder.write(Data(), to: "empty.png"))
        let big = URL(fileURLWithPath: try folder.write(Fixtures.png + Data(count: 100), to: "big.png"))
        let cases: [(URL, Int, ImageProblem)] = [
            (missing, CardLimits.imageMaxBytes, .missing),
            (folder.url, CardLimits.imageMaxBytes, .notAFile),
            (text, CardLimits.imageMaxBytes, .notPNGOrJPEG),
            (empty, CardLimits.imageMaxBytes, .empty),
            (big, 1000, .tooLarge(bytes: Fixtures.png.count + 100, limit: 1000)),
        ]
        for (url, limit, problem) in cases {
            #expect(throws: ImageUploadError(path: url.path(percentEncoded: false), problem: problem)) {
                _ = try ImageFile(validating: url, maximumBytes: limit)
            }
        }
        let description = CardAPIError.invalidImage(path: text.path, problem: .notPNGOrJPEG).description
        #expect(description.contains("fake.png"))
        #expect(description.contains("not a PNG or JPEG"))
        #expect(description.contains("nothing was sent"))
    }

    @Test func aSymbolicLinkToAnImageIsTheImageAndADanglingOneIsMissing() throws {
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        let real = URL(fileURLWithPath: try folder.write(Fixtures.png, to: "real.png"))
        let link = folder.url("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let image = try ImageFile(validating: link)
        #expect(image.format == .png && image.byteCount == Fixtures.png.count)
        #expect(image.url == link)

        let dangling = folder.url("dangling.png")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: folder.url("gone.png"))
        #expect(throws: ImageUploadError(path: dangling.path(percentEncoded: false), problem: .missing)) {
            _ = try ImageFile(validating: dangling)
        }
        let toFolder = folder.url("folder-link")
        try FileManager.default.createSymbolicLink(at: toFolder, withDestinationURL: folder.url)
        #expect(throws: ImageUploadError(path: toFolder.path(percentEncoded: false), problem: .notAFile)) {
            _ = try ImageFile(validating: toFolder)
        }
    }

    @Test func anInvalidImageSendsNothing() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let text = URL(fileURLWithPath: try harness.folder.write(Data("GIF89a".utf8), to: "a.gif"))
            await #expect(throws: CardAPIError.self) {
                _ = try await harness.client().createCard(CardFields(name: "Ada"), imageAt: text)
            }
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func theClientsLimitApplies() async throws {
        try await Harness.with { harness in
            let image = URL(fileURLWithPath: try harness.folder.write(Fixtures.png, to: "a.png"))
            let configuration = CardAPIConfiguration(
                server: Harness.server, maximumImageBytes: 100, allowsInsecureHTTP: true)
            let client = CardAPIClient(configuration: configuration, tokenStore: harness.store, transport: harness.stub)
            #expect(
                throws: CardAPIError.invalidImage(
                    path: image.path, problem: .tooLarge(bytes: Fixtures.png.count, limit: 100))
            ) {
                _ = try client.validateImage(at: image)
            }
        }
    }
}

/// Server addresses people type.
@Suite struct ServerURLTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("  https://cards.example/v1/// ", "https://cards.example/v1"),
        ("HTTP://localhost", "HTTP://localhost"),
    ])
    func goodAddressesAreNormalised(text: String, expected: String) throws {
        #expect(try CardAPIConfiguration.serverURL(text).absoluteString == expected)
    }

    @Test(arguments: [
        "", "127.0.0.1:8080", "ftp://host/v1", "http://", "http://host/v1?x=1", "not a url", "http://host/#frag",
    ])
    func badAddressesAreRefused(text: String) {
        #expect(throws: CardAPIError.invalidServerURL(text)) { _ = try CardAPIConfiguration.serverURL(text) }
        #expect(CardAPIError.invalidServerURL(text).description.contains("http://127.0.0.1:8080/v1"))
    }

    @Test func theConfigurationDropsTrailingSlashes() throws {
        let configuration = CardAPIConfiguration(server: try #require(URL(string: "http://h:1/v1/")))
        #expect(configuration.server.absoluteString == "http://h:1/v1")
        #expect(configuration.serverKey == "http://h:1/v1")
    }
}
