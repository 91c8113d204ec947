import Foundation
import NIOCore

extension MultipartFormData {
    /// The encoded body and its `Content-Type` (`multipart/form-data; boundary=…`).
    ///
    /// File sizes are read now; file contents only while sending.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` for an invalid explicit boundary, a
    ///   boundary found in a part, or an unreadable file.
    public func encoded() throws(NetworkError) -> (body: Request.Body, contentType: String) {
        let boundary = try chooseBoundary()
        var segments: [Request.Body.Segment] = []
        var buffer = ByteBuffer()
        for part in parts {
            buffer.writeString("--\(boundary)\r\n")
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName = part.fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
            buffer.writeString(disposition + "\r\n")
            if let mimeType = part.mimeType { buffer.writeString("Content-Type: \(Self.headerSafe(mimeType))\r\n") }
            buffer.writeString("\r\n")
            switch part.content {
            case .data(let data):
                buffer.writeBytes(data)
            case .file(let url):
                let path = url.path(percentEncoded: false)
                let size = try FileInfo.size(ofFileAt: path)
                segments.append(.bytes(buffer))
                segments.append(.file(path: path, length: size))
                buffer = ByteBuffer()
            }
            buffer.writeString("\r\n")
        }
        buffer.writeString("--\(boundary)--\r\n")
        segments.append(.bytes(buffer))
        let contentType = "multipart/form-data; boundary=\(Self.boundaryParameter(boundary))"
        return (Request.Body(segments: segments, multipartPartCount: parts.count), contentType)
    }

    private func chooseBoundary() throws(NetworkError) -> String {
        if let boundary {
            guard Self.isValidBoundary(boundary) else {
                throw .invalidRequest(
                    "The multipart boundary \(boundary.debugDescription) is invalid: use 1 to 70 letters, "
                        + "digits or '()+_,-./:=? and no trailing space (RFC 2046)."
                )
            }
            guard !occurs(boundary) else {
                throw .invalidRequest(
                    "The multipart boundary \(boundary.debugDescription) occurs inside a part; "
                        + "choose another or leave it unset."
                )
            }
            return boundary
        }
        while true {
            var generator = SystemRandomNumberGenerator()
            let high = generator.next() as UInt64
            let low = generator.next() as UInt64
            let candidate = "cardwallet-" + Self.hex(high) + Self.hex(low)
            if !occurs(candidate) { return candidate }
        }
    }

    /// Whether `boundary` appears in any in-memory part or part header.
    private func occurs(_ boundary: String) -> Bool {
        let needle = Array(boundary.utf8)
        return parts.contains { part in
            if ByteSearch.contains(Array(part.name.utf8), needle) { return true }
            if let fileName = part.fileName, ByteSearch.contains(Array(fileName.utf8), needle) { return true }
            if let mimeType = part.mimeType, ByteSearch.contains(Array(mimeType.utf8), needle) { return true }
            if case .data(let data) = part.content { return ByteSearch.contains(data, needle) }
            return false
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("'()+_,-./:=? ".utf8)
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || allowed.contains(byte)
        }
    }

    /// The boundary as a `Content-Type` parameter, quoted when it holds characters a token cannot.
    private static func boundaryParameter(_ boundary: String) -> String {
        let needsQuotes = boundary.utf8.contains { "(),/:=? ".utf8.contains($0) }
        return needsQuotes ? "\"\(boundary)\"" : boundary
    }

    /// A name or file name inside double quotes, escaped as the WHATWG form encoder does:
    /// `"` → `%22`, CR → `%0D`, LF → `%0A`.
    private static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else { return text }
        return text.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A header value with CR and LF removed, so a part header cannot be split.
    private static func headerSafe(_ text: String) -> String {
        text.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
    }
}
