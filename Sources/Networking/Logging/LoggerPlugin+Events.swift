import Foundation
import NIOCore
import TextSafety

/// Builds redacted events from captured requests and responses.
///
/// A class, so the many entries that hold it share one reference rather than each copying
/// the configuration (and retaining everything in it).
final class EventMaterializer: Sendable {
    let configuration: LoggerPlugin.Configuration

    init(configuration: LoggerPlugin.Configuration) {
        self.configuration = configuration
    }

    private var redaction: Redaction { configuration.redaction }
    private var previewer: BodyPreviewer { BodyPreviewer(redaction: redaction, limit: configuration.bodyPreviewLimit) }

    private func preview(of body: Request.Body, contentType: String?, secrets: inout [String]) -> String? {
        if body.multipartPartCount != nil || !body.isInMemory {
            return previewer.summary(of: body, contentType: contentType)
        }
        guard let buffer = body.inMemoryBuffer else { return nil }
        return previewer.preview(buffer, contentType: contentType, secrets: &secrets)
    }

    /// `created` or `sent`: the request's redacted URL, headers and body preview.
    func requestEvent(_ kind: NetworkEvent.Kind, for request: Request, bodyLength: Int64, at timestamp: Date)
        -> NetworkEvent
    {
        var secrets: [String] = []
        let headers: Headers
        let url: String
        var body: String?
        if request.body.isEmpty {
            // No preview to scrub: the secrets are not needed.
            headers = redaction.redact(request.headers)
            url = redaction.redact(url: request.url)
        } else {
            headers = redaction.redact(request.headers, collectingSecretsInto: &secrets)
            url = redaction.redact(url: request.url, collectingSecretsInto: &secrets)
            body = preview(of: request.body, contentType: request.headers["Content-Type"], secrets: &secrets)
        }
        return NetworkEvent(
            requestID: request.id, kind: kind, timestamp: timestamp, attempt: request.attempt,
            method: request.method, url: url, path: request.path, byteCount: bodyLength,
            headers: headers, bodyPreview: body)
    }

    /// `received`: status, timing, the response's redacted headers, body preview and tag.
    func responseEvent(_ response: Response, byteCount: Int64, duration: Duration?, at timestamp: Date) -> NetworkEvent
    {
        let request = response.request
        var secrets = redaction.secrets(of: request)
        let headers = redaction.redact(response.headers, collectingSecretsInto: &secrets)
        let url = redaction.redact(url: request.url)
        var body: String?
        if let download = response.download {
            body = "‹saved \(ByteCountText.format(download.byteCount)) to \(download.url.lastPathComponent)›"
        } else if !response.body.isEmpty {
            body = previewer.preview(response.body, contentType: response.headers["Content-Type"], secrets: &secrets)
        }
        // Scrub the whole tag before cutting it, so no part of a secret survives the cut.
        let tag = configuration.tagExtractor?.extract(response).map { raw in
            String(TerminalText.escaped(redaction.isEnabled ? Scrubber.scrub(raw, secrets: secrets) : raw).prefix(32))
        }
        return NetworkEvent(
            requestID: request.id, kind: .received, timestamp: timestamp, attempt: request.attempt,
            method: request.method, url: url, path: request.path, statusCode: response.statusCode,
            duration: duration, byteCount: byteCount, headers: headers, bodyPreview: body, tag: tag)
    }

    /// `created` or `sent` without headers or body preview (see ``RecordedEvent/headline``).
    func requestHeadline(_ kind: NetworkEvent.Kind, for request: Request, bodyLength: Int64, at timestamp: Date)
        -> NetworkEvent
    {
        NetworkEvent(
            requestID: request.id, kind: kind, timestamp: timestamp, attempt: request.attempt,
            method: request.method, url: redaction.redact(url: request.url), path: request.path,
            byteCount: bodyLength)
    }

    /// `received` without headers or body preview (see ``RecordedEvent/headline``), or `nil` when
    /// the response has a tag: a tag is scrubbed of the exchange's secrets, which takes what the
    /// whole event takes (headers and body preview).
    func responseHeadline(_ response: Response, byteCount: Int64, duration: Duration?, at timestamp: Date)
        -> NetworkEvent?
    {
        if let extractor = configuration.tagExtractor, extractor.extract(response) != nil { return nil }
        let request = response.request
        return NetworkEvent(
            requestID: request.id, kind: .received, timestamp: timestamp, attempt: request.attempt,
            method: request.method, url: redaction.redact(url: request.url), path: request.path,
            statusCode: response.statusCode, duration: duration, byteCount: byteCount)
    }

    /// `failed` or `retrying`: the error's description, with every secret of the exchange scrubbed.
    func failureEvent(
        _ error: NetworkError,
        kind: NetworkEvent.Kind,
        for request: Request,
        duration: Duration?,
        retryDelay: Duration?
    ) -> NetworkEvent {
        let url = redaction.redact(url: request.url)
        var description = error.description
        if redaction.isEnabled {
            // The description shows URLs redacted by the default policy; also scrub values this
            // policy knows to be secret (custom fragments, tokens echoed in server messages).
            var secrets = redaction.secrets(of: request)
            if let response = error.response {
                redaction.collectSecrets(of: response.headers, into: &secrets)
                _ = previewer.preview(response.body, contentType: response.headers["Content-Type"], secrets: &secrets)
            }
            description = description.replacingOccurrences(of: Redaction.default.redact(url: request.url), with: url)
            description = Scrubber.scrub(description, secrets: secrets)
        }
        return NetworkEvent(
            requestID: request.id, kind: kind, timestamp: configuration.now(), attempt: request.attempt,
            method: request.method, url: url, path: request.path, statusCode: error.statusCode,
            duration: duration, errorDescription: description, retryDelay: retryDelay)
    }
}
