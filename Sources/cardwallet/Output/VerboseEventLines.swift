import Foundation
import Networking

/// `-v`: each network event as one line on standard error, as it happens, the way the
/// interface's log pane shows it — the path with its query (`→ GET /v1/cards?limit=200&offset=0`;
/// sensitive values already `<private>`). The logger plugin hands every event here
/// synchronously, so the lines appear in order and none is lost when the command exits.
/// `created` events are left out: the `sent` line that follows says the same.
struct VerboseEventLines: NetworkEventSink {
    /// What each line starts with.
    var prefix = "cardwallet: "

    private let formatter = NetworkEventFormatter()

    func record(_ recorded: RecordedEvent) {
        let event = recorded.event
        if event.kind == .created { return }
        Console.err(prefix + formatter.line(Self.withQuery(event)) + "\n")
    }

    /// `event` with its URL's query after its path (the formatter shows the path alone).
    static func withQuery(_ event: NetworkEvent) -> NetworkEvent {
        let query = query(of: event.url)
        guard !query.isEmpty else { return event }
        return NetworkEvent(
            id: event.id, requestID: event.requestID, kind: event.kind, timestamp: event.timestamp,
            attempt: event.attempt, method: event.method, url: event.url, path: event.path + "?" + query,
            statusCode: event.statusCode, duration: event.duration, byteCount: event.byteCount,
            headers: event.headers, bodyPreview: event.bodyPreview, errorDescription: event.errorDescription,
            tag: event.tag, retryDelay: event.retryDelay)
    }

    /// The URL text's query as written (percent-encoded, values the plugin hid as `<private>`):
    /// after the first `?` that comes before any `#`, up to a `#`; empty without one. Read off
    /// the text because a redacted URL need not parse as a URL.
    static func query(of url: String) -> Substring {
        guard let mark = url.firstIndex(where: { $0 == "?" || $0 == "#" }), url[mark] == "?" else { return "" }
        let start = url.index(after: mark)
        return url[start..<(url[start...].firstIndex(of: "#") ?? url.endIndex)]
    }
}
