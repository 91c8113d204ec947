import CardAPIContract
import CardModels
import Foundation

/// A `multipart/form-data` body built by hand, so tests control every byte (and can break it).
struct MultipartForm: Sendable {
    var boundary = "cardwallet-test-boundary-7MA4YWxkTrZu0gW"
    var parts: [(name: String, filename: String?, contentType: String?, data: Data)] = []

    init(fields: CardFields? = nil) {
        if let fields {
            for (name, value) in CardForm.parts(for: fields) { add(name, value) }
        }
    }

    mutating func add(_ name: String, _ value: String) {
        parts.append((name, nil, nil, Data(value.utf8)))
    }

    mutating func addImage(_ data: Data, filename: String = "photo.png", contentType: String = "image/png") {
        parts.append((CardForm.imagePartName, filename, contentType, data))
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var body: Data {
        var data = Data()
        for part in parts {
            data.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { disposition += "; filename=\"\(filename)\"" }
            data.append(Data("\(disposition)\r\n".utf8))
            if let type = part.contentType { data.append(Data("Content-Type: \(type)\r\n".utf8)) }
            data.append(Data("\r\n".utf8))
            data.append(part.data)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }
}

/// Small real images.
enum TestImages {
    /// A 1×1 PNG.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        ?? Data()
    /// The start of a JPEG (enough for the magic-byte check).
    static let jpeg = Data(
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01] + Array(repeating: 0, count: 64))
    /// A GIF, which the server refuses.
    static let gif = Data("GIF89a\u{01}\u{00}\u{01}\u{00}\u{00}\u{00}\u{00};".utf8)

    /// A PNG-looking blob of `size` bytes (valid signature, junk after it).
    static func png(size: Int) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(Data(repeating: 0x42, count: max(0, size - 8)))
        return data
    }
}
