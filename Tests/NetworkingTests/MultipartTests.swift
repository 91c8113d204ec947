import Foundation
import MultipartKit
import NIOCore
import Networking
import TestSupport
import Testing

/// Multipart bodies: exact bytes, binary safety, boundaries, byte-identical re-sends.
@Suite struct MultipartTests {
    static let binary = Data((0...255).map { UInt8($0) } + [0x0D, 0x0A, 0x2D, 0x2D])

    @Test func goldenBytesWithFixedBoundary() throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append("Ada \"The\" Lovelace", name: "card.name")
        form.append(Data([0x89, 0x50, 0x4E, 0x47]), name: "image", fileName: "a.png", mimeType: "image/png")
        let (body, contentType) = try form.encoded()
        #expect(contentType == "multipart/form-data; boundary=XyZ")
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"card.name\"\r\n\r\nAda \"The\" Lovelace\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
        var bytes = Data(expected.utf8)
        bytes.append(contentsOf: [0x89, 0x50, 0x4E, 0x47])
        bytes.append(contentsOf: Array("\r\n--XyZ--\r\n".utf8))
        #expect(body.data == bytes)
        #expect(body.length == Int64(bytes.count))
        #expect(body.multipartPartCount == 2)
    }

    @Test func namesWithQuotesAndNewlinesAreEscaped() throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append(Data(), name: "a\"b\r\nc", fileName: "x\".txt", mimeType: "text/plain")
        let text = try #require(try form.encoded().body.data).text
        #expect(text.contains(#"name="a%22b%0D%0Ac"; filename="x%22.txt""#))
    }

    @Test func binaryPartsRoundTripThroughMultipartKit() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = folder.url("blob.bin")
        try Self.binary.write(to: file)
        var form = MultipartFormData()
        form.append("hello", name: "greeting")
        form.append(Self.binary, name: "data", fileName: "d.bin", mimeType: "application/octet-stream")
        form.append(fileAt: file, name: "file")
        let (body, contentType) = try form.encoded()
        let boundary = try #require(contentType.split(separator: "=").last.map(String.init))
        #expect(boundary.hasPrefix("cardwallet-") && boundary.count == "cardwallet-".count + 32)

        let parts = try Self.parse(try await body.collect(), boundary: boundary)
        #expect(parts.map(\.name) == ["greeting", "data", "file"])
        #expect(parts[0].body == Data("hello".utf8))
        #expect(parts[1].body == Self.binary)
        #expect(parts[2].body == Self.binary)
        #expect(parts[2].headers.contains { $0 == ("Content-Type", "application/octet-stream") })
        #expect(parts[2].headers.contains { $0.0 == "Content-Disposition" && $0.1.contains(#"filename="blob.bin""#) })
    }

    @Test func fileTypeIsGuessedFromExtension() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(fileAt: URL(fileURLWithPath: "/x/photo.JPG"), name: "image")
        #expect(form.parts[0].mimeType == "image/jpeg")
        #expect(form.parts[0].fileName == "photo.JPG")
    }

    @Test func explicitBoundaryFoundInContentIsRejected() {
        var form = MultipartFormData(boundary: "abc")
        form.append("xxabcxx", name: "field")
        #expect(throws: NetworkError.self) { try form.encoded() }
    }

    @Test func invalidBoundaryIsRejected() {
        let form = MultipartFormData(boundary: String(repeating: "a", count: 71))
        #expect(throws: NetworkError.self) { try form.encoded() }
        #expect(throws: NetworkError.self) { try MultipartFormData(boundary: "bad\r\n").encoded() }
    }

    @Test func randomBoundaryNeverCollidesAndDiffersPerBuild() throws {
        var form = MultipartFormData()
        form.append(Self.binary, name: "data")
        let first = try form.encoded().contentType
        let second = try form.encoded().contentType
        #expect(first != second)
    }

    @Test func reSendAfterRefreshIsByteIdentical() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = folder.url("card.png")
        try Self.binary.write(to: file)
        var form = MultipartFormData()
        form.append("Ada", name: "card.name")
        form.append(fileAt: file, name: "image")

        let bodies = BodiesSeen()
        let server = FakeAuthServer()
        let stub = StubTransport { request in
            await bodies.add(try await request.body.collect(), contentType: request.headers["Content-Type"] ?? "")
            return await server.handle(request)
        }
        let provider = Provider<AdHoc>(transport: stub, interceptors: [RetryOnceInterceptor()])
        let response = try await provider.request(AdHoc(body: .multipart(form, query: ["v": 1])))
        #expect(response.statusCode == 200)
        #expect(await server.seenTokens == ["Bearer stale", "Bearer fresh"])
        let seen = await bodies.all
        #expect(seen.count == 2)
        #expect(seen[0] == seen[1])
        #expect(stub.requests[0].url == stub.requests[1].url)
        #expect(stub.requests[0].url.query == "v=1")
    }

    actor BodiesSeen {
        var all: [Pair] = []
        struct Pair: Equatable {
            var body: Data
            var contentType: String
        }
        func add(_ body: Data, contentType: String) { all.append(Pair(body: body, contentType: contentType)) }
    }

    struct Part {
        var headers: [(String, String)] = []
        var body = Data()
        var name: String? {
            headers.first { $0.0 == "Content-Disposition" }.flatMap { header in
                header.1.split(separator: ";").compactMap { piece -> String? in
                    let trimmed = piece.trimmingCharacters(in: .whitespaces)
                    guard trimmed.hasPrefix("name=") else { return nil }
                    return String(trimmed.dropFirst(5)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }.first
            }
        }
    }

    /// Parses with MultipartKit's parser: the reference our encoder must satisfy.
    static func parse(_ data: Data, boundary: String) throws -> [Part] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [Part] = []
        var current = Part()
        parser.onHeader = { current.headers.append(($0, $1)) }
        parser.onBody = { buffer in current.body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            parts.append(current)
            current = Part()
        }
        try parser.execute(ByteBuffer(bytes: data))
        return parts
    }
}
