import CardModels
import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// What `POST /card` sent: the card fields, their problems, and the image.
struct CardUpload: Sendable {
    var fields: CardFields
    /// Field (or part) name → problem, as E01 reports them.
    var problems: [String: String]
    var image: SeedImage?
}

/// Reads a `multipart/form-data` body as it streams in, holding at most the limits in memory.
///
/// The declared `Content-Length` is checked first; then the body is fed chunk by chunk to
/// MultipartKit's parser, and reading stops at once when the body passes
/// `maxMultipartBytes`, the image part passes `maxImageBytes` (E08), or the image does not
/// start like a PNG or JPEG (E09). Text parts keep at most a little more than their field's
/// limit; longer values are reported as too long without being stored.
enum MultipartCardReader {
    /// The most parts a form may have: the largest valid card takes 225 (11 single-valued
    /// fields, 3 `tmi`, 10 `tags`, 200 `vcardProperties` lines and the image); the rest is room
    /// for the empty parts a browser form sends for fields left blank.
    static let maxParts = 256

    static func read(_ request: Request, limits: MockServerConfiguration.Limits) async throws(APIError) -> CardUpload {
        let boundary = try boundary(of: request)
        try RequestReading.checkDeclaredLength(request, limit: limits.maxMultipartBytes, what: "The upload")
        let state = PartCollector(maxImageBytes: limits.maxImageBytes)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in state.header(name: name, value: value) }
        parser.onBody = { buffer in state.body(buffer.readableBytesView) }
        parser.onPartComplete = { state.completePart() }
        let closing = Array("--\(boundary)--".utf8)
        var tail: [UInt8] = []
        var total = 0
        do {
            for try await chunk in request.body {
                total += chunk.readableBytes
                if total > limits.maxMultipartBytes {
                    throw APIError.payloadTooLarge(
                        "The upload is larger than the limit of \(limits.maxMultipartBytes) bytes.")
                }
                tail.append(contentsOf: chunk.readableBytesView.suffix(closing.count + 16))
                if tail.count > closing.count + 16 { tail.removeFirst(tail.count - closing.count - 16) }
                do {
                    try parser.execute(chunk)
                } catch {
                    throw APIError.badRequest("The multipart body is malformed.")
                }
                if let failure = state.failure { throw failure }
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw .badRequest("The request body could not be read.")
        }
        while let last = tail.last, [0x0D, 0x0A, 0x20, 0x09].contains(last) { tail.removeLast() }
        guard !state.inPart, tail.count >= closing.count, Array(tail.suffix(closing.count)) == closing else {
            throw .badRequest("The multipart body ends early: its closing boundary is missing.")
        }
        return try state.upload()
    }

    /// The boundary of a `multipart/form-data` request; E09 for any other content type.
    static func boundary(of request: Request) throws(APIError) -> String {
        guard RequestReading.mediaType(request) == "multipart/form-data", let value = request.headers[.contentType]
        else {
            throw .unsupportedMediaType(
                "POST /card takes multipart/form-data (got \(RequestReading.describe(RequestReading.mediaType(request))))."
            )
        }
        let parameters = HeaderParameters.parse(value)
        guard let boundary = parameters["boundary"], (1...70).contains(boundary.utf8.count),
            boundary.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw .badRequest("The multipart Content-Type needs a boundary of 1–70 printable characters.")
        }
        return boundary
    }
}

/// Parameters of a header value such as `form-data; name="card.name"; filename="a.png"`.
enum HeaderParameters {
    /// Lowercased parameter names → unquoted values; the leading token is skipped.
    static func parse(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var segments: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                segments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        segments.append(current)
        for segment in segments.dropFirst() {
            guard let equals = segment.firstIndex(of: "=") else { continue }
            let name = segment[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = segment[segment.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }
}

/// Gathers parts from the parser's callbacks, within limits. Used by one request only.
private final class PartCollector {
    let maxImageBytes: Int
    private var headers: [(String, String)] = []
    private var bytes: [UInt8] = []
    private var overflowed = false
    private var partCount = 0
    private var textParts: [(name: String, value: String)] = []
    private var seenSingleFields = Set<String>()
    private(set) var problems: [String: String] = [:]
    private var image: SeedImage?
    private var imageCount = 0
    private(set) var failure: APIError?
    private(set) var inPart = false

    init(maxImageBytes: Int) {
        self.maxImageBytes = maxImageBytes
    }

    private var partName: String? {
        headers.first { $0.0.lowercased() == "content-disposition" }.flatMap { HeaderParameters.parse($0.1)["name"] }
    }

    /// The most bytes kept for a part: the image limit, or four bytes per character of the field.
    private var partLimit: Int {
        guard let name = partName else { return 0 }
        if name == CardForm.imagePartName { return maxImageBytes }
        if name == CardForm.vcardPropertiesPartName { return CardLimits.vcardPropertyMaxLength * 4 + 16 }
        if name.hasPrefix("card."), let field = CardField(rawValue: String(name.dropFirst(5))) {
            return field.maxLength * 4 + 16
        }
        return 0
    }

    func header(name: String, value: String) {
        inPart = true
        if headers.count < 16 { headers.append((name, value)) }
    }

    func body(_ chunk: ByteBufferView) {
        inPart = true
        guard failure == nil, !overflowed else { return }
        if bytes.count + chunk.count > partLimit {
            overflowed = true
            bytes = []
            if partName == CardForm.imagePartName {
                failure = .payloadTooLarge("The image is larger than the limit of \(maxImageBytes) bytes.")
            }
            return
        }
        bytes.append(contentsOf: chunk)
        if partName == CardForm.imagePartName, bytes.count >= 8, CardImageFormat(sniffing: bytes) == nil {
            failure = .unsupportedMediaType("The image is not a PNG or JPEG file.")
        }
    }

    func completePart() {
        defer {
            headers = []
            bytes = []
            overflowed = false
            inPart = false
        }
        partCount += 1
        guard failure == nil else { return }
        if partCount > MultipartCardReader.maxParts {
            failure = .badRequest("The form has more than \(MultipartCardReader.maxParts) parts.")
            return
        }
        guard let name = partName else {
            failure = .badRequest("A multipart part has no Content-Disposition name.")
            return
        }
        if name == CardForm.imagePartName {
            completeImage()
            return
        }
        guard name.hasPrefix("card.") else {
            problems[Self.printable(name)] = "is not a known part"
            return
        }
        if name == CardForm.vcardPropertiesPartName {
            completeKeptProperty(name)
            return
        }
        guard let field = CardField(rawValue: String(name.dropFirst(5))) else {
            problems[Self.printable(name)] = "is not a card field"
            return
        }
        if field.kind.list == nil && !seenSingleFields.insert(field.key).inserted {
            problems[field.key] = "is given more than once"
            return
        }
        if overflowed {
            problems[field.key] = "must be at most \(field.maxLength) characters"
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            problems[field.key] = "is not valid UTF-8 text"
            return
        }
        textParts.append((name, text))
    }

    /// One repeated `card.vcardProperties` part: one kept vCard line.
    private func completeKeptProperty(_ name: String) {
        let key = CardLimits.vcardPropertiesKey
        if overflowed {
            problems[key] = "must hold lines of at most \(CardLimits.vcardPropertyMaxLength) characters"
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            problems[key] = "is not valid UTF-8 text"
            return
        }
        textParts.append((name, text))
    }

    private func completeImage() {
        imageCount += 1
        if imageCount > 1 {
            problems[CardForm.imagePartName] = "is given more than once"
            return
        }
        // A file input left empty still sends an empty part: that means no image.
        guard !bytes.isEmpty else { return }
        guard let format = CardImageFormat(sniffing: bytes) else {
            failure = .unsupportedMediaType("The image is not a PNG or JPEG file.")
            return
        }
        image = SeedImage(contentType: format.contentType, data: Data(bytes))
    }

    func upload() throws(APIError) -> CardUpload {
        if let failure { throw failure }
        let (fields, formProblems) = CardForm.fields(from: textParts)
        return CardUpload(fields: fields, problems: problems.merging(formProblems) { first, _ in first }, image: image)
    }

    /// Part names are echoed back only when short and printable.
    private static func printable(_ name: String) -> String {
        let clean = name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        return clean && name.count <= 64 ? name : "(unnamed part)"
    }
}
