import Foundation
import Networking
import TestSupport
import Testing

/// Every body kind gives the exact URL, bytes and content type expected.
@Suite struct BodyEncodingTests {
    @Test func plainHasNoBodyAndNoContentType() async throws {
        let request = try await sentRequest(for: AdHoc(method: .get, body: .plain))
        #expect(request.url.absoluteString == "https://api.example.com/v1/cards")
        #expect(request.method == .get)
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func rawDataKeepsBytesAndContentType() async throws {
        let bytes = Data([0x00, 0xFF, 0x0D, 0x0A, 0x42])
        let request = try await sentRequest(for: AdHoc(body: .data(bytes, contentType: "application/x-thing")))
        #expect(request.body.data == bytes)
        #expect(request.body.length == 5)
        #expect(request.headers["Content-Type"] == "application/x-thing")
    }

    @Test func rawDataWithoutContentTypeSendsNone() async throws {
        let request = try await sentRequest(for: AdHoc(body: .data(Data("x".utf8))))
        #expect(request.headers["Content-Type"] == nil)
    }

    struct Card: Encodable, Sendable {
        var name: String
        var website: String
        var tags: [String]
    }

    @Test func jsonUsesSortedKeysAndUnescapedSlashes() async throws {
        let card = Card(name: "Ada", website: "https://ada.example/me", tags: ["b", "a"])
        let request = try await sentRequest(for: AdHoc(body: .json(card)))
        #expect(request.body.data?.text == #"{"name":"Ada","tags":["b","a"],"website":"https://ada.example/me"}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func jsonWithCustomEncoder() async throws {
        struct Payload: Encodable, Sendable {
            var firstName = "Ada"
            var lastName = "Lovelace"
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        let request = try await sentRequest(for: AdHoc(body: .json(Payload(), encoder: encoder)))
        #expect(request.body.data?.text == #"{"first_name":"Ada","last_name":"Lovelace"}"#)
    }

    @Test func targetContentTypeWins() async throws {
        let request = try await sentRequest(
            for: AdHoc(body: .json(["a": 1] as Parameters), headers: ["Content-Type": "application/vnd.card+json"]))
        #expect(request.headers.values(for: "content-type") == ["application/vnd.card+json"])
    }

    static let nested: Parameters = [
        "b": 2, "a": [1, 2], "c": ["e": "f g", "d": ["x": true]], "flag": false, "skip": nil, "pi": 3.5,
    ]

    @Test func queryStringEncodesNestedValuesLikeAlamofire() async throws {
        let request = try await sentRequest(
            for: AdHoc(method: .get, body: .parameters(Self.nested, encoding: .queryString)))
        #expect(
            request.url.absoluteString
                == "https://api.example.com/v1/cards?a%5B%5D=1&a%5B%5D=2&b=2&c%5Bd%5D%5Bx%5D=1&c%5Be%5D=f%20g&flag=0&pi=3.5"
        )
        #expect(request.body.isEmpty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func arrayAndBoolStyles() {
        let parameters: Parameters = ["a": [1, 2], "t": true]
        #expect(URLEncodedForm.encode(parameters, arrays: .noBrackets) == "a=1&a=2&t=1")
        #expect(
            URLEncodedForm.encode(parameters, arrays: .indexInBrackets, bools: .literal)
                == "a%5B0%5D=1&a%5B1%5D=2&t=true")
    }

    @Test func rfc3986PercentEncoding() {
        #expect(URLEncodedForm.escape("AZaz09-._~/?") == "AZaz09-._~/?")
        #expect(URLEncodedForm.escape("!*'();:@&=+$,#[] ") == "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%23%5B%5D%20")
        #expect(URLEncodedForm.escape("é😀") == "%C3%A9%F0%9F%98%80")
        #expect(URLEncodedForm.encode(["q": "a&b=c", "x y": "1"]) == "q=a%26b%3Dc&x%20y=1")
    }

    @Test func orderIsStableAcrossRuns() {
        let first = URLEncodedForm.encode(Self.nested)
        for _ in 0..<20 { #expect(URLEncodedForm.encode(Self.nested) == first) }
    }

    @Test func formBody() async throws {
        let request = try await sentRequest(
            for: AdHoc(body: .parameters(["name": "Ada L", "tags": ["x", "y"]], encoding: .formURLEncoded)))
        #expect(request.body.data?.text == "name=Ada%20L&tags%5B%5D=x&tags%5B%5D=y")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(request.url.query == nil)
    }

    @Test func jsonParameters() async throws {
        let request = try await sentRequest(for: AdHoc(body: .parameters(Self.nested, encoding: .json)))
        #expect(
            request.body.data?.text
                == #"{"a":[1,2],"b":2,"c":{"d":{"x":true},"e":"f g"},"flag":false,"pi":3.5,"skip":null}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func compositeAddsQueryToAnyBody() async throws {
        let request = try await sentRequest(
            for: AdHoc(
                body: .composite(.data(Data("raw".utf8), contentType: "text/plain"), query: ["v": 2, "q": "a b"])))
        #expect(request.url.absoluteString == "https://api.example.com/v1/cards?q=a%20b&v=2")
        #expect(request.body.data?.text == "raw")
        #expect(request.headers["Content-Type"] == "text/plain")
    }

    @Test func baseURLQueryAndPathEscaping() async throws {
        let target = AdHoc(
            baseURL: URL(string: "http://127.0.0.1:8080/api/?key=1")!, path: "card/a b#c",
            method: .get, body: .parameters(["x": "1"], encoding: .queryString))
        let request = try await sentRequest(for: target)
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/api/card/a%20b%23c?key=1&x=1")
        #expect(request.path == "/api/card/a%20b%23c")
    }

    @Test func badBaseURLIsAnInvalidRequest() async throws {
        let target = AdHoc(baseURL: URL(string: "relative/path")!)
        await #expect {
            _ = try await Provider(transport: StubTransport(StubResponse())).request(target)
        } throws: { error in
            guard case .invalidRequest(let message) = error as? NetworkError else { return false }
            return message.contains("scheme and host")
        }
    }

    @Test func uploadFileIsStreamedFromDisk() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = folder.url("photo.png")
        try Data(repeating: 7, count: 3000).write(to: file)
        let request = try await sentRequest(for: AdHoc(body: .uploadFile(file)))
        #expect(request.headers["Content-Type"] == "image/png")
        #expect(request.body.length == 3000)
        #expect(request.body.isInMemory == false)
        #expect(request.body.data == nil)
        #expect(try await request.body.collect() == Data(repeating: 7, count: 3000))
    }

    @Test func uploadFollowsASymbolicLinkToTheFile() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let file = folder.url("real.bin")
        try Data(repeating: 9, count: 1234).write(to: file)
        let link = folder.url("link.bin")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let request = try await sentRequest(for: AdHoc(body: .uploadFile(link)))
        #expect(request.body.length == 1234)
        #expect(try await request.body.collect() == Data(repeating: 9, count: 1234))

        var form = MultipartFormData(boundary: "XyZ")
        form.append(fileAt: link, name: "file")
        let multipart = try await sentRequest(for: AdHoc(body: .multipart(form)))
        #expect(try await multipart.body.collect().count > 1234)
    }

    @Test func uploadOfMissingFileFailsClearly() async throws {
        let target = AdHoc(body: .uploadFile(URL(fileURLWithPath: "/nonexistent/file.bin")))
        await #expect {
            _ = try await Provider(transport: StubTransport(StubResponse())).request(target)
        } throws: { error in
            "\(error)".contains("Could not read the file to upload at /nonexistent/file.bin")
        }
    }

    @Test func downloadSetsDestinationAndQuery() async throws {
        let folder = try TemporaryFolder("networking")
        defer { folder.remove() }
        let destination = DownloadDestination(folder.url("x.bin"))
        let request = try await sentRequest(
            for: AdHoc(method: .get, body: .download(to: destination, query: ["size": 10])))
        #expect(request.downloadDestination == destination)
        #expect(request.url.query == "size=10")
        #expect(request.body.isEmpty)
    }
}
