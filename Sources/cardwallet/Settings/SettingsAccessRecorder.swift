import Configuration
import Synchronization

/// Keeps the last `ConfigReader` access event, so the loader can tell where a value came from
/// and why a value was refused.
///
/// swift-configuration's non-throwing getters fall back to the default when a provider holds a
/// value of the wrong type; the event still carries the provider's error and the conversion
/// error, which is how a bad value becomes a clear message instead of a silent default.
final class SettingsAccessRecorder: AccessReporter {
    private let last = Mutex<AccessEvent?>(nil)

    func report(_ event: AccessEvent) {
        last.withLock { $0 = event }
    }

    /// The event of the latest read, forgetting it.
    func take() -> AccessEvent? {
        last.withLock { event in
            defer { event = nil }
            return event
        }
    }
}

/// What one read found: the value's provider (by index in the reader's provider list), or the
/// provider that held an unusable value.
enum SettingLookup: Equatable {
    /// No provider has the key.
    case absent
    /// The provider at this index gave the value.
    case found(providerIndex: Int)
    /// The provider at this index holds a value of the wrong type.
    case unusable(providerIndex: Int)

    init(_ event: AccessEvent?) {
        guard let event, let index = event.providerResults.indices.last else {
            self = .absent
            return
        }
        switch event.providerResults[index].result {
        case .failure:
            self = .unusable(providerIndex: index)
        case .success(let lookup):
            if lookup.value == nil {
                self = .absent
            } else if event.conversionError != nil {
                self = .unusable(providerIndex: index)
            } else {
                self = .found(providerIndex: index)
            }
        }
    }
}
