import CardModels
import Foundation
import Hummingbird

/// Reading and checking what a request carries: headers, bodies and their limits.
enum RequestReading {
    /// The token of an `Authorization`-style value `Bearer <token>` (scheme case-insensitive).
    static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// The media type of `Content-Type`, lowercased, without parameters.
    static func mediaType(_ request: Request) -> String? {
        guard let value = request.headers[.contentType] else { return nil }
        return value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Refuses anything but `application/json` (E09).
    static func requireJSON(_ request: Request) throws(APIError) {
        let type = mediaType(request)
        guard type == "application/json" || (type?.hasSuffix("+json") ?? false) else {
            throw .unsupportedMediaType(
                "This endpoint takes JSON: send Content-Type: application/json (got \(describe(type))).")
        }
    }

    static func describe(_ mediaType: String?) -> String {
        guard let mediaType else { return "no Content-Type" }
        let printable = mediaType.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return printable && mediaType.count <= 100 ? mediaType : "an unreadable Content-Type"
    }

    /// Refuses a body whose declared `Content-Length` exceeds `limit` (E08) before reading it.
    static func checkDeclaredLength(_ request: Request, limit: Int, what: String) throws(APIError) {
        guard let text = request.headers[.contentLength] else { return }
        guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
            throw .badRequest("The Content-Length header is not a number.")
        }
        if length > limit { throw .payloadTooLarge("\(what) is \(length) bytes; the limit is \(limit) bytes.") }
    }

    /// The whole body, reading no more than `limit` bytes: past that, E08 at once.
    static func collectBody(_ request: Request, limit: Int, what: String) async throws(APIError) -> Data {
        try checkDeclaredLength(request, limit: limit, what: what)
        var data = Data()
        do {
            for try await chunk in request.body {
                if data.count + chunk.readableBytes > limit {
                    throw APIError.payloadTooLarge("\(what) is larger than the limit of \(limit) bytes.")
                }
                data.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw .badRequest("The request body could not be read.")
        }
        return data
    }

    /// A raw image body: at most `limit` bytes (E08 as soon as it passes them) that start like
    /// a PNG or JPEG (E09 as soon as the first eight bytes say otherwise, or when it is empty).
    /// The type is the one the bytes show, whatever `Content-Type` said.
    static func collectImage(_ request: Request, limit: Int) async throws(APIError) -> SeedImage {
        try checkDeclaredLength(request, limit: limit, what: "The image")
        var data = Data()
        var sniffed = false
        do {
            for try await chunk in request.body {
                if data.count + chunk.readableBytes > limit {
                    throw APIError.payloadTooLarge("The image is larger than the limit of \(limit) bytes.")
                }
                data.append(contentsOf: chunk.readableBytesView)
                if !sniffed, data.count >= 8 {
                    sniffed = true
                    if CardImageFormat(sniffing: data) == nil { throw notAnImage }
                }
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw .badRequest("The request body could not be read.")
        }
        guard !data.isEmpty else {
            throw .unsupportedMediaType("The body is empty: send the PNG or JPEG bytes (DELETE removes the image).")
        }
        guard let format = CardImageFormat(sniffing: data) else { throw notAnImage }
        return SeedImage(contentType: format.contentType, data: data)
    }

    private static var notAnImage: APIError {
        .unsupportedMediaType(
            "The image is not a PNG or JPEG file (its first bytes say so, whatever its Content-Type).")
    }

    /// A JSON body decoded as `T`, with decoding problems reported as E01 with `fields`.
    static func decodeJSON<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws(APIError) -> T
    {
        try requireJSON(request)
        let data = try await collectBody(request, limit: limit, what: "The JSON body")
        return try decodeJSON(type, from: data)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws(APIError) -> T {
        do {
            return try CardWalletJSON.decoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw problem(error)
        } catch {
            throw .badRequest("The body is not valid JSON.")
        }
    }

    /// Turns a decoding error into E01 naming the field.
    static func problem(_ error: DecodingError) -> APIError {
        func key(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let missing, let context):
            let name = key(context.codingPath + [missing])
            return .badRequest("The body is missing “\(name)”.", fields: [name: "is required"])
        case .typeMismatch(let type, let context):
            let name = key(context.codingPath)
            let expected = MockServerConfiguration.typeName(type)
            if name.isEmpty { return .badRequest("The body must be a JSON object.") }
            return .badRequest("“\(name)” has the wrong type.", fields: [name: "must be \(expected)"])
        case .valueNotFound(let type, let context):
            let name = key(context.codingPath)
            let expected = MockServerConfiguration.typeName(type)
            return .badRequest("“\(name)” must not be null.", fields: [name: "must be \(expected)"])
        case .dataCorrupted(let context):
            let name = key(context.codingPath)
            if name.isEmpty { return .badRequest("The body is not valid JSON.") }
            return .badRequest("“\(name)” is not valid.", fields: [name: "is not valid"])
        @unknown default:
            return .badRequest("The body is not valid JSON.")
        }
    }
}

/// Collects the keys of a JSON object, to refuse keys a type does not know.
struct JSONObjectKeys: Decodable {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let keys: [String]

    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    }
}
