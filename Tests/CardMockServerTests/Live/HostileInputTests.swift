import AsyncHTTPClient
import CardMockServer
import CardModels
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Bytes no polite client sends, on a live socket: the server answers each without a 5xx,
/// creates nothing, and keeps serving.
@Suite struct HostileInputTests {
    static func multipartHead(port: Int, token: String, framing: String) -> String {
        "POST /v1/card HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: multipart/form-data; boundary=XyZ\r\n\(framing)\r\n\r\n"
    }

    /// A form whose image part starts like a PNG and then stops: no closing boundary.
    static var truncatedForm: Data {
        var body = Data(
            "--XyZ\r\nContent-Disposition: form-data; name=\"card.name\"\r\n\r\nCut short\r\n--XyZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\n\r\n"
                .utf8)
        body.append(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        body.append(Data(repeating: 0, count: 100))
        return body
    }

    @Test func aMultipartBodyCutShortByTheClientIsE01() async throws {
        try await LiveServer.with { live in
            let token = try await live.login().accessToken
            let port = live.server.port
            // Content-Length promises more than arrives, then the client stops sending.
            var declared = Data(Self.multipartHead(port: port, token: token, framing: "Content-Length: 100000").utf8)
            declared.append(Self.truncatedForm)
            let first = try await RawConnection.exchange(port: port, bytes: declared)
            #expect(RawConnection.status(of: first) == 400, "\(String(decoding: first, as: UTF8.self))")
            #expect(String(decoding: first, as: UTF8.self).contains(#""errorCode":"E01""#))

            // Chunked, and the last chunk never comes.
            var chunked = Data(Self.multipartHead(port: port, token: token, framing: "Transfer-Encoding: chunked").utf8)
            chunked.append(Data(String(Self.truncatedForm.count, radix: 16).utf8) + Data("\r\n".utf8))
            chunked.append(Self.truncatedForm)
            chunked.append(Data("\r\n".utf8))
            let second = try await RawConnection.exchange(port: port, bytes: chunked)
            #expect(RawConnection.status(of: second) == 400)

            // Chunked and complete, but the form has no closing boundary.
            chunked.append(Data("0\r\n\r\n".utf8))
            let third = try await RawConnection.exchange(port: port, bytes: chunked)
            #expect(RawConnection.status(of: third) == 400)
            #expect(String(decoding: third, as: UTF8.self).contains("closing boundary"))

            let page = try await live.send(.GET, "/cards?q=cut", token: token).data(APICardPage.self)
            #expect(page.total == 0, "nothing was created")
            #expect(
                live.server.statistics.requests.keys.allSatisfy { route in
                    live.server.statistics.requests[route]?.keys.allSatisfy { !$0.hasPrefix("5") } ?? true
                })
        }
    }

    @Test func headersPastTheParsersLimitGetABare400AndTheServerCarriesOn() async throws {
        try await LiveServer.with { live in
            let huge = String(repeating: "a", count: 200_000)
            let request = "GET /v1/cards HTTP/1.1\r\nHost: x\r\nX-Huge: \(huge)\r\n\r\n"
            let reply = try await RawConnection.exchange(port: live.server.port, bytes: Data(request.utf8))
            #expect(RawConnection.status(of: reply) == 400)
            let garbage = try await RawConnection.exchange(
                port: live.server.port, bytes: Data("GARBAGE\0\r\n\r\n".utf8))
            #expect(RawConnection.status(of: garbage) == 400)
            _ = try await live.login()
        }
    }

    @Test func deeplyNestedJSONIsE01NotACrash() async throws {
        try await LiveServer.with { live in
            let token = try await live.login().accessToken
            let depth = 10_000  // far past any decoder's nesting limit, within the 64 KiB body limit
            let nested =
                #"{"order": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
            let reorder = try await live.send(
                .PUT, "/cards", token: token, headers: ["Content-Type": "application/json"],
                body: .bytes(.init(string: nested)))
            #expect(reorder.status == 400)
            #expect(try reorder.failure().errorCode == .badRequest)
            let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            let put = try await live.send(
                .PUT, "/card/demo-01", token: token,
                headers: ["Content-Type": "application/json", "If-Match": #""1""#],
                body: .bytes(.init(string: objects)))
            #expect(put.status == 400)
            #expect(try await live.send(.GET, "/cards", token: token).status == 200)
        }
    }
}
