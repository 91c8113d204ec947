/// Where a backend's session reports each change of its ``SessionState``, synchronously, in the
/// order the changes happen.
///
/// Give the same object to the ``Networking/LoggerPlugin`` (as its
/// ``Networking/NetworkEventSink``) and to the session, and its reader sees a refresh's exchange
/// before the state change the exchange caused: both write into one ordered channel from the
/// task that made them happen. A session has at most one sink; ``CardBackend/reportSession(to:)``
/// re-points it (say, when the app switches to another account's session), without replaying
/// the current state.
public protocol SessionStateSink: Sendable {
    /// Takes one state change. It runs inside the session: keep it to an append and a wake-up.
    func sessionChanged(_ state: SessionState)
}
