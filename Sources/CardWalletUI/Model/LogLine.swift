public import Foundation

/// One line of the network log pane, made by the glue from a logger-plugin event.
///
/// Every text here is untrusted (paths and messages can carry what a server sent) and is shown
/// escaped. The glue redacts tokens before it makes a line: the UI shows what it is given.
public struct LogLine: Equatable, Sendable, Identifiable {
    /// What the line is about.
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        /// A request was sent.
        case request
        /// A response arrived (any status).
        case response
        /// A request failed without a response (cannot connect, timeout, cancelled).
        case failure
        /// A session event: a token refresh, an expired session (E06), a login or logout.
        case session
    }

    /// Increases with every line (the pane keeps its selection by id).
    public var id: UInt64
    /// When it happened.
    public var time: Date
    /// What the line is about.
    public var kind: Kind
    /// `GET`, `POST`, … when the line is about a request.
    public var method: String?
    /// The request path with its query, e.g. `/cards?offset=0&limit=100`.
    public var path: String?
    /// The HTTP status of a response.
    public var status: Int?
    /// The server's error code tag (`E04`, …) when there was one.
    public var errorCode: String?
    /// How long the exchange took.
    public var duration: Duration?
    /// The response body's size in bytes.
    public var bytes: Int?
    /// Shown in the error style and kept by the "failures only" filter.
    public var isFailure: Bool
    /// A one-line summary, e.g. the server's message or "refreshed the access token".
    public var text: String
    /// What the detail view's lines are made from; they are built only when read.
    public var lazyDetail: LogDetail

    /// More lines for the detail view (headers with tokens as `<private>`, body excerpt), built
    /// from ``lazyDetail`` on each read: read it when the detail is shown, not per line.
    public var detail: [String] {
        get { lazyDetail.lines }
        set { lazyDetail = LogDetail(lines: newValue) }
    }

    /// A log line; everything but `id`, `time`, `kind` and `text` is optional.
    public init(
        id: UInt64, time: Date, kind: Kind, method: String? = nil, path: String? = nil,
        status: Int? = nil, errorCode: String? = nil, duration: Duration? = nil, bytes: Int? = nil,
        isFailure: Bool = false, text: String = "", detail: [String] = []
    ) {
        self.init(
            id: id, time: time, kind: kind, method: method, path: path, status: status, errorCode: errorCode,
            duration: duration, bytes: bytes, isFailure: isFailure, text: text, lazyDetail: LogDetail(lines: detail))
    }

    /// A log line whose detail lines are built from `lazyDetail` only when read.
    public init(
        id: UInt64, time: Date, kind: Kind, method: String? = nil, path: String? = nil,
        status: Int? = nil, errorCode: String? = nil, duration: Duration? = nil, bytes: Int? = nil,
        isFailure: Bool = false, text: String = "", lazyDetail: LogDetail
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.method = method
        self.path = path
        self.status = status
        self.errorCode = errorCode
        self.duration = duration
        self.bytes = bytes
        self.isFailure = isFailure
        self.text = text
        self.lazyDetail = lazyDetail
    }
}
