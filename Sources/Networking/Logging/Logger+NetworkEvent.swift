public import Logging

extension NetworkEvent {
    /// The swift-log level for this event: `debug` for created and sent, `info` for a response
    /// below 400, `notice` for 4xx and retries, `warning` for 5xx, `error` for failures
    /// (`debug` for cancellation).
    public var logLevel: Logger.Level {
        switch kind {
        case .created, .sent: .debug
        case .retrying: .notice
        case .received:
            switch statusCode ?? 0 {
            case ..<400: .info
            case ..<500: .notice
            default: .warning
            }
        case .failed: errorDescription == NetworkError.cancelled.description ? .debug : .error
        }
    }

    /// The event's fields as swift-log metadata (all redacted).
    public var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "request-id": "\(requestID.rawValue)",
            "event": "\(kind.rawValue)",
            "attempt": "\(attempt)",
            "method": "\(method.rawValue)",
            "url": "\(url)",
        ]
        if let statusCode { metadata["status"] = "\(statusCode)" }
        if let duration { metadata["duration"] = "\(NetworkEventFormatter.format(duration))" }
        if let byteCount { metadata["bytes"] = "\(byteCount)" }
        if let tag { metadata["tag"] = "\(tag)" }
        return metadata
    }
}

extension Logger {
    /// Logs a network event as its one-line form, at ``NetworkEvent/logLevel``, with
    /// ``NetworkEvent/logMetadata``.
    public func log(_ event: NetworkEvent, formatter: NetworkEventFormatter = NetworkEventFormatter()) {
        log(level: event.logLevel, "\(formatter.line(event))", metadata: event.logMetadata)
    }
}
