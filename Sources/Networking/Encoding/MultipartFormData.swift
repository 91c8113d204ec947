public import Foundation

/// A `multipart/form-data` body (RFC 7578): text, data and file parts in order.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "card.name")
/// form.append(fileAt: imageURL, name: "image")            // streamed from disk when sent
/// form.append(pngData, name: "logo", fileName: "logo.png", mimeType: "image/png")
/// ```
///
/// The body is encoded once per request — one boundary, fixed bytes — and every attempt of
/// that request (a retry after a token refresh) sends exactly those bytes. Without an explicit
/// ``boundary``, a random one (`cardwallet-` and 32 hex digits) is chosen and checked against
/// every in-memory part; file parts are not read in advance, so for them the guarantee rests on
/// the boundary's 128 random bits.
public struct MultipartFormData: Sendable, Hashable {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// Where a part's bytes come from.
        public enum Content: Sendable, Hashable {
            /// Bytes in memory.
            case data(Data)
            /// A file, read from disk while sending.
            case file(URL)
        }

        /// The form field name (`name=` in `Content-Disposition`).
        public var name: String
        /// The file name (`filename=`), or `nil` for a plain field.
        public var fileName: String?
        /// The part's `Content-Type`, or `nil` to send none.
        public var mimeType: String?
        /// The bytes.
        public var content: Content

        /// A part.
        public init(name: String, fileName: String? = nil, mimeType: String? = nil, content: Content) {
            self.name = name
            self.fileName = fileName
            self.mimeType = mimeType
            self.content = content
        }
    }

    /// The parts, in the order they are sent.
    public private(set) var parts: [Part]
    /// The boundary to use, or `nil` to pick a random one when the body is built.
    public var boundary: String?

    /// An empty form; pass `boundary` only when you need fixed bytes (golden tests).
    public init(parts: [Part] = [], boundary: String? = nil) {
        self.parts = parts
        self.boundary = boundary
    }

    /// Appends a text field, sent as UTF-8 without a `Content-Type`.
    public mutating func append(_ text: String, name: String) {
        parts.append(Part(name: name, content: .data(Data(text.utf8))))
    }

    /// Appends bytes, as a file when `fileName` is given.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(name: name, fileName: fileName, mimeType: mimeType, content: .data(data)))
    }

    /// Appends a file streamed from disk when sent.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - fileName: The name sent; by default the URL's last path component.
    ///   - mimeType: The part's type; by default guessed from the extension, else
    ///     `application/octet-stream`.
    public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
        let sentName = fileName ?? url.lastPathComponent
        parts.append(
            Part(
                name: name, fileName: sentName, mimeType: mimeType ?? MIMEType.guess(forFileName: sentName),
                content: .file(url)))
    }
}
