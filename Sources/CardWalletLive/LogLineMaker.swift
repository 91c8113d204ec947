public import CardAPI
import CardModels
public import CardWalletUI
public import Foundation
public import Networking
import Synchronization

/// Makes the log pane's lines: from the logger plugin's events (redacted when built: tokens
/// and passwords read `<private>`), from session changes (refreshes, E06) and from the app's
/// own notes. Ids increase across all three, so the pane keeps them in order. The main loop
/// makes them (see ``LiveEventSink``), so ids follow the order of the one channel.
public final class LogLineMaker: Sendable {
    private let nextID = Mutex<UInt64>(1)
    private let now: @Sendable () -> Date

    /// A maker stamping session lines and notes with `now`.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// The line of a recorded exchange, or `nil` for events the pane does not show
    /// (`created`: `sent` follows at once). Made from the event's headline: the redacted event,
    /// with its headers and body preview, is built only when the detail view opens.
    public func line(for recorded: RecordedEvent) -> LogLine? {
        if recorded.kind == .created { return nil }
        return line(for: recorded.headline) {
            NetworkEventFormatter().detailLines(recorded.event, includingLine: false)
        }
    }

    /// The line of a network event, or `nil` for events the pane does not show.
    public func line(for event: NetworkEvent) -> LogLine? {
        line(for: event) { NetworkEventFormatter().detailLines(event, includingLine: false) }
    }

    /// The line showing `event`'s summary, its detail lines made by `detailLines` when read.
    private func line(for event: NetworkEvent, detailLines: @escaping @Sendable () -> [String]) -> LogLine? {
        if event.kind == .created { return nil }
        let method = TerminalText.escaped(event.method.rawValue)
        let path = Self.pathAndQuery(of: event)
        // Built only when the detail view opens: formatting headers and body per line cost
        // more than the rest of the line.
        let detail = LogDetail(building: detailLines)
        let endpoint = AuthService.Endpoint.Kind(path: event.path)
        switch event.kind {
        case .created:
            return nil
        case .sent:
            var text = endpoint?.requestLabel ?? ""
            if event.attempt > 1 { text += (text.isEmpty ? "" : ", ") + "attempt \(event.attempt)" }
            return LogLine(
                id: takeID(), time: event.timestamp, kind: .request, method: method, path: path,
                bytes: event.byteCount.flatMap { $0 > 0 ? Int(clamping: $0) : nil }, text: text, lazyDetail: detail)
        case .received:
            let status = event.statusCode ?? 0
            let code = event.tag.map { TerminalText.escaped($0) }
            return LogLine(
                id: takeID(), time: event.timestamp, kind: .response, method: method, path: path,
                status: event.statusCode,
                errorCode: code, duration: event.duration, bytes: event.byteCount.map { Int(clamping: $0) },
                isFailure: status >= 400, text: Self.responseLabel(endpoint, status: status, code: code),
                lazyDetail: detail)
        case .failed:
            return LogLine(
                id: takeID(), time: event.timestamp, kind: .failure, method: method, path: path,
                duration: event.duration,
                isFailure: true, text: TerminalText.escaped(event.errorDescription ?? "failed"), lazyDetail: detail)
        case .retrying:
            let delay = event.retryDelay.map { $0 > .zero ? "in \(Format.duration($0))" : "now" } ?? "now"
            let cause = event.statusCode.map { " after \($0)" } ?? ""
            return LogLine(
                id: takeID(), time: event.timestamp, kind: .session, method: method, path: path,
                status: event.statusCode,
                text: "retrying\(cause): attempt \(event.attempt + 1) \(delay)", lazyDetail: detail)
        }
    }

    /// The line for a session change, or `nil` when it is not worth a line: logins, logouts
    /// and the end of a refresh show as their own exchanges. A refresh starting and the session's
    /// end get one (the exchange that ended it shows the server's code, when it sent one).
    public func line(for state: SessionState, at time: Date) -> LogLine? {
        switch state {
        case .refreshing(let account):
            return note("refreshing the access token of \(account.email)", at: time)
        case .expired(let server, let account):
            let whose = account.map { " for \($0.email)" } ?? " at \(server)"
            return note("session expired\(whose): log in again", isFailure: true, at: time)
        case .loggedIn, .loggedOut:
            return nil
        }
    }

    /// A session line of the app's own (the demo's server address, a log file problem).
    public func note(_ text: String, isFailure: Bool = false, at time: Date? = nil) -> LogLine {
        LogLine(
            id: takeID(), time: time ?? now(), kind: .session, isFailure: isFailure, text: TerminalText.escaped(text))
    }

    private func takeID() -> UInt64 {
        nextID.withLock { id in
            defer { id += 1 }
            return id
        }
    }

    /// The path with its query (sensitive values already hidden by the plugin, shown as
    /// `<private>`), e.g. `/v1/cards?offset=0&limit=100`.
    static func pathAndQuery(of event: NetworkEvent) -> String {
        var path = event.path
        let query = query(of: event.url)
        if !query.isEmpty { path += "?" + query }
        return TerminalText.escaped(path)
    }

    /// The percent-encoded query of a URL's text (what `URLComponents(string:)?.percentEncodedQuery`
    /// gives for a valid URL): after the first `?` that comes before any `#`, up to a `#`; empty
    /// without one. Found on the UTF-8 bytes: parsing the whole URL once per line cost more than
    /// the rest of the line.
    static func query(of url: String) -> Substring {
        let utf8 = url.utf8
        guard let mark = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            utf8[mark] == UInt8(ascii: "?")
        else { return "" }
        let start = utf8.index(after: mark)
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        return url[start..<end]
    }
}

extension LogLineMaker {
    /// The short label of a response: what an auth call did, or what the error code means.
    static func responseLabel(_ endpoint: AuthService.Endpoint.Kind?, status: Int, code: String?) -> String {
        if (200..<300).contains(status) { return endpoint?.responseLabel ?? "" }
        guard let code else { return "" }
        let errorCode = ErrorCode(rawValue: code)
        if errorCode == .refreshTokenExpired { return "session over: log in again" }
        return errorCode.isKnown ? errorCode.summary : ""
    }
}

extension AuthService.Endpoint.Kind {
    /// What a request to this endpoint is doing, for the pane.
    var requestLabel: String {
        switch self {
        case .login: "logging in"
        case .refresh: "refreshing the access token"
        case .logout: "logging out"
        }
    }

    /// What a success of this endpoint did, for the pane.
    var responseLabel: String {
        switch self {
        case .login: "logged in"
        case .refresh: "access token refreshed"
        case .logout: "logged out"
        }
    }
}
