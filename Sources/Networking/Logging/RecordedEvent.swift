public import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization

/// One moment of an exchange as a ``LoggerPlugin`` recorded it: what the plugin captured on the
/// request path (cheap copies), turned into a redacted ``NetworkEvent`` the first time someone
/// reads ``event``, then kept.
///
/// This is what a ``NetworkEventSink`` receives: recording costs the request a capture, and
/// the redaction and formatting happen wherever the sink's reader reads the event (a log
/// pane's main loop, say), not on the request path.
public final class RecordedEvent: Sendable {
    /// What was captured.
    enum Capture: Sendable {
        /// `created` or `sent`; the body may be trimmed, `bodyLength` is the real length.
        case request(NetworkEvent.Kind, Request, bodyLength: Int64)
        /// `received`; the body may be trimmed, `byteCount` is the real count.
        case response(Response, byteCount: Int64, duration: Duration?)
        /// An event built at once (failures, retries).
        case built(NetworkEvent)

        /// The swift-log level of the event this becomes, without building it.
        var logLevel: Logger.Level {
            switch self {
            case .request: .debug
            case .response(let response, _, _):
                switch response.statusCode {
                case ..<400: .info
                case ..<500: .notice
                default: .warning
                }
            case .built(let event): event.logLevel
            }
        }
    }

    /// Increases with every event of one plugin, in the order they were recorded.
    public let id: UInt64
    /// When it happened (wall clock).
    public let timestamp: Date
    let capture: Capture
    private let materializer: EventMaterializer
    /// The event once built, boxed: most entries are never read, and an inline
    /// `NetworkEvent?` would more than double every entry the ring keeps.
    private let cache = Mutex<Built?>(nil)

    private final class Built: Sendable {
        let event: NetworkEvent
        init(_ event: NetworkEvent) { self.event = event }
    }

    init(id: UInt64, timestamp: Date, capture: Capture, materializer: EventMaterializer) {
        self.id = id
        self.timestamp = timestamp
        self.capture = capture
        self.materializer = materializer
    }

    /// What happened, known without building the event.
    public var kind: NetworkEvent.Kind {
        switch capture {
        case .request(let kind, _, _): kind
        case .response: .received
        case .built(let event): event.kind
        }
    }

    /// The redacted event, built on the first read and kept (safe from any thread).
    public var event: NetworkEvent {
        if let cached = cache.withLock({ $0 }) { return cached.event }
        var event: NetworkEvent
        switch capture {
        case .request(let kind, let request, let bodyLength):
            event = materializer.requestEvent(kind, for: request, bodyLength: bodyLength, at: timestamp)
        case .response(let response, let byteCount, let duration):
            event = materializer.responseEvent(response, byteCount: byteCount, duration: duration, at: timestamp)
        case .built(let built):
            event = built
        }
        event.id = id
        event.timestamp = timestamp
        let built = Built(event)
        cache.withLock { $0 = built }
        return event
    }

    /// The event without its headers and body preview — everything a one-line summary shows
    /// (method, redacted URL, path, attempt, status, duration, sizes, tag, error) — built without
    /// redacting headers or previewing the body, and not kept. Once ``event`` was read, or when
    /// the response has a tag (scrubbing it takes the whole event), this is ``event`` itself.
    public var headline: NetworkEvent {
        if let cached = cache.withLock({ $0 }) { return cached.event }
        var headline: NetworkEvent
        switch capture {
        case .request(let kind, let request, let bodyLength):
            headline = materializer.requestHeadline(kind, for: request, bodyLength: bodyLength, at: timestamp)
        case .response(let response, let byteCount, let duration):
            guard
                let made = materializer.responseHeadline(
                    response, byteCount: byteCount, duration: duration, at: timestamp)
            else { return event }
            headline = made
        case .built:
            return event
        }
        headline.id = id
        headline.timestamp = timestamp
        return headline
    }

    /// The most body bytes kept per captured request or response for a preview limit: at least
    /// 64 KiB, so secrets in a request body are still found for scrubbing.
    static func keptBodyBytes(previewLimit: Int) -> Int {
        max(64 * 1024, previewLimit + BodyPreviewer.slack)
    }

    /// `request` holding at most `limit` bytes of body, so the ring buffer never keeps a large
    /// body alive.
    static func trimmed(_ request: Request, to limit: Int) -> Request {
        guard request.body.length > Int64(limit) || request.body.multipartPartCount != nil else { return request }
        var trimmed = request
        trimmed.body = request.body.trimmed(to: limit)
        return trimmed
    }

    /// `response` (and its request) holding at most `limit` bytes of body each.
    static func trimmed(_ response: Response, to limit: Int) -> Response {
        let request = trimmed(response.request, to: limit)
        guard response.body.count > limit else {
            return request.body == response.request.body
                ? response : response.replacing(body: response.body, request: request)
        }
        return response.replacing(body: Data(response.body.prefix(limit)), request: request)
    }
}

extension Response {
    func replacing(body: Data, request: Request) -> Response {
        Response(statusCode: statusCode, headers: headers, body: body, request: request, download: download)
    }
}

extension Request.Body {
    /// At most `limit` bytes of an in-memory body (copied, so the original storage is freed);
    /// for a body with file or multipart parts, only its size and part count.
    func trimmed(to limit: Int) -> Request.Body {
        if multipartPartCount != nil || !isInMemory {
            return Request.Body(summaryOf: self)
        }
        guard length > Int64(limit), let buffer = inMemoryBuffer else { return self }
        return Request.Body(buffer: ByteBuffer(bytes: buffer.readableBytesView.prefix(limit)))
    }
}
