public import Foundation

/// What a target's request carries (Moya calls this `Task`).
///
/// | Kind | Body | `Content-Type` |
/// |---|---|---|
/// | ``plain`` | none | — |
/// | ``data(_:contentType:)`` | the bytes | the given type, if any |
/// | ``json(_:encoder:)`` | the value as JSON (keys sorted by default) | `application/json` |
/// | ``parameters(_:encoding:)`` | query string, form or JSON (see ``ParameterEncoding``) | form or JSON type |
/// | ``composite(_:query:)`` | another kind's body, plus query parameters | that kind's |
/// | ``multipart(_:query:)`` | multipart form data, built once | `multipart/form-data; boundary=…` |
/// | ``uploadFile(_:contentType:)`` | a file, streamed from disk | given, guessed or `application/octet-stream` |
/// | ``download(to:query:)`` | none; a 2xx response body is streamed to a file | — |
///
/// A target's own `Content-Type` header, if it sets one, wins.
public indirect enum RequestBody: Sendable {
    /// No body.
    case plain
    /// Raw bytes, with an optional content type.
    case data(Data, contentType: String? = nil)
    /// A value encoded as JSON, by `encoder` or by default with sorted keys and unescaped slashes
    /// (stable bytes).
    case json(any Encodable & Sendable, encoder: JSONEncoder? = nil)
    /// Parameters in the query string or the body, as `encoding` says.
    case parameters(Parameters, encoding: ParameterEncoding)
    /// Another kind's body plus URL query parameters.
    case composite(RequestBody, query: Parameters)
    /// Multipart form data, optionally with URL query parameters.
    case multipart(MultipartFormData, query: Parameters = [:])
    /// The file at a file URL, streamed from disk as the body (never loaded whole).
    case uploadFile(URL, contentType: String? = nil)
    /// No body; a 2xx response body is written to `destination` instead of memory.
    case download(to: DownloadDestination, query: Parameters = [:])
}

/// Guesses a MIME type from a file name's extension.
enum MIMEType {
    static let octetStream = "application/octet-stream"

    static func guess(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return octetStream }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "json": return "application/json"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        case "html", "htm": return "text/html"
        case "xml": return "application/xml"
        case "zip": return "application/zip"
        case "vcf": return "text/vcard"
        default: return octetStream
        }
    }
}
