import Synchronization

@testable import Networking

/// A ``NetworkEventSink`` that keeps what it is handed, in order.
final class RecordingSink: NetworkEventSink {
    private let recorded = Mutex<[RecordedEvent]>([])

    func record(_ event: RecordedEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// What was handed over so far, oldest first.
    var entries: [RecordedEvent] { recorded.withLock { $0 } }

    /// The events built from what was handed over.
    var events: [NetworkEvent] { entries.map(\.event) }
}
