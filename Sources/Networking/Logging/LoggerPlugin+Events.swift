import Foundation
import NIOCore

extension LoggerPlugin {
    private var redaction: Redaction { configuration.redaction }
    private var previewer: BodyPreviewer { BodyPreviewer(redaction: redaction, limit: configuration.bodyPreviewLimit) }

    /// The redacted parts of a request, and the secret values found while redacting it.
    private struct RedactedRequest {
        var url: String
        var headers: Headers
        var body: String?
        var secrets: [String]
    }

    private func redacted(_ request: Request, includingBody: Bool) -> RedactedRequest {
        var secrets: [String] = []
        let headers = redaction.redact(request.headers, collectingSecretsInto: &secrets)
        let url = redaction.redact(url: request.url, collectingSecretsInto: &secrets)
        var body: String?
        if includingBody || (!request.body.isEmpty && redaction.isEnabled) {
            body = preview(of: request.body, contentType: request.headers["Content-Type"], secrets: &secrets)
        }
        return RedactedRequest(url: url, headers: headers, body: body, secrets: secrets)
    }

    private func preview(of body: Request.Body, contentType: String?, secrets: inout [String]) -> String? {
        if body.multipartPartCount != nil || !body.isInMemory {
            return previewer.summary(of: body, contentType: contentType)
        }
        guard let buffer = body.inMemoryBuffer else { return nil }
        return previewer.preview(buffer, contentType: contentType, secrets: &secrets)
    }

    func requestEvent(_ kind: NetworkEvent.Kind, for request: Request) -> NetworkEvent {
        let parts = redacted(request, includingBody: true)
        return NetworkEvent(
            requestID: request.id, kind: kind, timestamp: configuration.now(), attempt: request.attempt,
            method: request.method, url: parts.url, path: request.path, byteCount: request.body.length,
            headers: parts.headers, bodyPreview: parts.body)
    }

    func responseEvent(_ response: Response, for request: Request, duration: Duration?) -> NetworkEvent {
        var secrets = redacted(request, includingBody: false).secrets
        let headers = redaction.redact(response.headers, collectingSecretsInto: &secrets)
        let url = redaction.redact(url: request.url, collectingSecretsInto: &secrets)
        let contentType = response.headers["Content-Type"]
        var body: String?
        if let download = response.download {
            body = "‹saved \(ByteCountText.format(download.byteCount)) to \(download.url.lastPathComponent)›"
        } else if !response.body.isEmpty {
            body = previewer.preview(ByteBuffer(data: response.body), contentType: contentType, secrets: &secrets)
        }
        var tag = configuration.tagExtractor?.extract(response).map { String($0.prefix(32)) }
        if let text = tag {
            tag = TerminalText.escaped(redaction.isEnabled ? Scrubber.scrub(text, secrets: secrets) : text)
        }
        return NetworkEvent(
            requestID: request.id, kind: .received, timestamp: configuration.now(), attempt: request.attempt,
            method: request.method, url: url, path: request.path, statusCode: response.statusCode,
            duration: duration, byteCount: response.byteCount, headers: headers, bodyPreview: body, tag: tag)
    }

    func failureEvent(
        _ error: NetworkError,
        kind: NetworkEvent.Kind,
        for request: Request,
        duration: Duration?,
        retryDelay: Duration?
    ) -> NetworkEvent {
        let parts = redacted(request, includingBody: false)
        var description = error.description
        if redaction.isEnabled {
            // The description shows URLs redacted by the default policy; also scrub values this
            // policy knows to be secret (custom fragments, tokens echoed in server messages).
            var secrets = parts.secrets
            if let response = error.response {
                _ = redaction.redact(response.headers, collectingSecretsInto: &secrets)
                _ = previewer.preview(ByteBuffer(data: response.body), contentType: response.headers["Content-Type"], secrets: &secrets)
            }
            description = Scrubber.scrub(description, secrets: secrets)
            description = description.replacingOccurrences(of: Redaction.default.redact(url: request.url), with: parts.url)
        }
        return NetworkEvent(
            requestID: request.id, kind: kind, timestamp: configuration.now(), attempt: request.attempt,
            method: request.method, url: parts.url, path: request.path, statusCode: error.statusCode,
            duration: duration, errorDescription: description, retryDelay: retryDelay)
    }
}
