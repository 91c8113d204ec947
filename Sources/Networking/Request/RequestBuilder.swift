import Foundation
import NIOCore
import NIOFoundationCompat

/// Builds the ``Request`` for a target: URL, headers and the encoded body.
enum RequestBuilder {
    private static let sortedJSONEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The request for `target`, body encoded once.
    static func request(for target: some TargetType) throws(NetworkError) -> Request {
        var query = ""
        var headers = target.headers
        var download: DownloadDestination?
        let body = try encode(target.body, method: target.method, query: &query, headers: &headers, download: &download)
        let url = try url(for: target, query: query)
        return Request(
            method: target.method, url: url, headers: headers, body: body, timeout: target.timeout,
            downloadDestination: download)
    }

    private static func encode(
        _ kind: RequestBody,
        method: HTTPMethod,
        query: inout String,
        headers: inout Headers,
        download: inout DownloadDestination?
    ) throws(NetworkError) -> Request.Body {
        switch kind {
        case .plain:
            return .empty
        case .data(let data, let contentType):
            if let contentType { setContentType(contentType, in: &headers) }
            return .data(data)
        case .json(let value, let encoder):
            do {
                let data = try (encoder ?? sortedJSONEncoder).encode(value)
                setContentType("application/json", in: &headers)
                return .data(data)
            } catch {
                throw .invalidRequest("Could not encode \(type(of: value)) as JSON for \(method) request: \(error).")
            }
        case .parameters(let parameters, let encoding):
            switch encoding.destination {
            case .queryString:
                appendQuery(
                    URLEncodedForm.encode(parameters, arrays: encoding.arrays, bools: encoding.bools), to: &query)
                return .empty
            case .formBody:
                setContentType("application/x-www-form-urlencoded; charset=utf-8", in: &headers)
                let form = URLEncodedForm.encode(parameters, arrays: encoding.arrays, bools: encoding.bools)
                return Request.Body(buffer: ByteBuffer(string: form))
            case .jsonBody:
                return try encode(
                    .json(parameters), method: method, query: &query, headers: &headers, download: &download)
            }
        case .composite(let inner, let parameters):
            let body = try encode(inner, method: method, query: &query, headers: &headers, download: &download)
            appendQuery(URLEncodedForm.encode(parameters), to: &query)
            return body
        case .multipart(let form, let parameters):
            let (body, contentType) = try form.encoded()
            setContentType(contentType, in: &headers)
            appendQuery(URLEncodedForm.encode(parameters), to: &query)
            return body
        case .uploadFile(let url, let contentType):
            guard url.isFileURL else {
                throw .invalidRequest("Could not upload \(url.absoluteString): only file URLs can be uploaded.")
            }
            setContentType(contentType ?? MIMEType.guess(forFileName: url.lastPathComponent), in: &headers)
            return try .file(url)
        case .download(let destination, let parameters):
            download = destination
            appendQuery(URLEncodedForm.encode(parameters), to: &query)
            return .empty
        }
    }

    private static func setContentType(_ value: String, in headers: inout Headers) {
        if !headers.contains("Content-Type") { headers.set(value, for: "Content-Type") }
    }

    private static func appendQuery(_ encoded: String, to query: inout String) {
        guard !encoded.isEmpty else { return }
        query += query.isEmpty ? encoded : "&" + encoded
    }

    /// `baseURL` + `path` + `query`, with `path` percent-encoded where RFC 3986 requires.
    static func url(for target: some TargetType, query: String) throws(NetworkError) -> URL {
        var text = target.baseURL.absoluteString
        var existingQuery: Substring?
        if let mark = text.firstIndex(ofASCII: UInt8(ascii: "?")) {
            existingQuery = text[text.index(after: mark)...]
            text = String(text[..<mark])
        }
        let path = target.path
        if !path.isEmpty {
            if text.isASCII ? text.utf8.last == UInt8(ascii: "/") : text.hasSuffix("/") { text.removeLast() }
            if !(path.isASCII ? path.utf8.first == UInt8(ascii: "/") : path.hasPrefix("/")) { text += "/" }
            text += PathEscaping.escaped(path)
        }
        var fullQuery = existingQuery.map(String.init) ?? ""
        if !query.isEmpty { fullQuery = existingQuery == nil ? query : fullQuery + "&" + query }
        if !fullQuery.isEmpty { text += "?" + fullQuery }
        // AsyncHTTPClient rejects a URL without a host when sending; checking the scheme here
        // catches the common mistake (a relative base URL) without parsing the host twice.
        guard let url = URL(string: text), url.scheme != nil else {
            throw .invalidRequest(
                "Could not build a URL from base \(target.baseURL.absoluteString) and path "
                    + "\(path.debugDescription); check the base URL has a scheme and host."
            )
        }
        return url
    }

}
