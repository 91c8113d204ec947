import CardAPIContract
import CardModels
import Foundation
import NIOCore

/// What the hostile server does on one connection: raw bytes, pauses and trickles, in order,
/// then the connection is closed. A trickle that never ends (``Step/forever(_:every:)``) runs
/// until the client closes the connection or the server stops.
struct HostileReply: Sendable {
    enum Step: Sendable {
        /// Writes the bytes at once.
        case bytes([UInt8])
        /// Waits.
        case pause(Duration)
        /// Writes the bytes one at a time, `every` apart.
        case trickle([UInt8], every: Duration)
        /// Writes `byte` every `every`, until the client gives up.
        case forever(UInt8, every: Duration)
    }

    var steps: [Step]

    /// A whole response: status line, `Content-Length`, `Connection: close`, the extra headers, the body.
    static func raw(status: Int, headers: [(String, String)] = [], body: [UInt8]) -> HostileReply {
        HostileReply(steps: [.bytes(head(status: status, headers: headers, length: body.count) + body)])
    }

    /// A JSON response.
    static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> HostileReply {
        raw(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    /// The API's success envelope around `data`, encoded with the contract's encoder.
    static func success<Payload: Codable & Sendable>(_ data: Payload) -> HostileReply {
        let encoded = (try? CardWalletJSON.encoder().encode(SuccessEnvelope(data: data))) ?? Data("null".utf8)
        return json(String(decoding: encoded, as: UTF8.self))
    }

    /// The API's error envelope with any code and message (written as JSON, escapes and all).
    static func error(status: Int, code: String, message: String = "no", headers: [(String, String)] = [])
        -> HostileReply
    {
        let envelope: [String: Any] = ["status": status, "success": false, "errorCode": code, "message": message]
        let body = (try? JSONSerialization.data(withJSONObject: envelope)) ?? Data()
        return raw(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body))
    }

    /// A 200 head announcing a large JSON body, then `{` and one space `every` interval, forever.
    static func trickledBody(every interval: Duration) -> HostileReply {
        HostileReply(steps: [
            .bytes(head(status: 200, headers: [("Content-Type", "application/json")], length: 10_000_000) + [123]),
            .forever(32, every: interval),
        ])
    }

    /// The start of a head, then one more byte of a header's value `every` interval, forever.
    static func trickledHead(every interval: Duration) -> HostileReply {
        HostileReply(steps: [
            .bytes(Array("HTTP/1.1 200 OK\r\nX-Slow: ".utf8)), .forever(UInt8(ascii: "a"), every: interval),
        ])
    }

    /// A head announcing `length` bytes of body, a few of them, and then nothing.
    static func announced(length: Int) -> HostileReply {
        HostileReply(steps: [
            .bytes(
                head(status: 200, headers: [("Content-Type", "application/json")], length: length)
                    + Array("{\"data\":".utf8)),
            .pause(.seconds(600)),
        ])
    }

    static func head(status: Int, headers: [(String, String)], length: Int) -> [UInt8] {
        var text = "HTTP/1.1 \(status) Whatever\r\nContent-Length: \(length)\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Plays the steps on `channel`, then closes it; stops early when a write fails (the client
    /// went away) or the task is cancelled (the server stopped).
    func play(on channel: any Channel) async {
        defer { channel.close(promise: nil) }
        func write(_ bytes: [UInt8]) async -> Bool {
            do {
                try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
                return true
            } catch {
                return false
            }
        }
        for step in steps {
            switch step {
            case .bytes(let bytes):
                guard await write(bytes) else { return }
            case .pause(let duration):
                guard (try? await Task.sleep(for: duration)) != nil else { return }
            case .trickle(let bytes, let interval):
                for byte in bytes {
                    guard (try? await Task.sleep(for: interval)) != nil, await write([byte]) else { return }
                }
            case .forever(let byte, let interval):
                while channel.isActive {
                    guard (try? await Task.sleep(for: interval)) != nil, await write([byte]) else { return }
                }
                return
            }
        }
    }
}
