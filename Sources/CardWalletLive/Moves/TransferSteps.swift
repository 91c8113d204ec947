import Foundation

/// The steps of a move, a copy or a merge, named for the test that kills the process between
/// them (`CARDWALLET_TEST_KILL_AT=created`, for instance): the process then ends at once with
/// SIGKILL, as a crash or `kill -9` would end it, with nothing flushed or tidied. The end-to-end
/// tests (CardWalletCLITests' BooksCommandTests) run every step so, then the retry, and count the
/// cards on the server. Unset, nothing happens.
public enum TransferStep: String, Sendable, CaseIterable {
    /// The order is in the source's outbox; nothing is sent yet.
    case recorded
    /// The target's server answered the create (or the merge's write); not recorded yet.
    case created
    /// The written card is recorded in the order; the source's delete not sent yet.
    case written
    /// The source's server answered the delete; the order not marked done yet.
    case deleted

    /// The steps the environment asks to be killed at.
    private static let killAt: Set<String> = {
        guard let wanted = ProcessInfo.processInfo.environment["CARDWALLET_TEST_KILL_AT"] else { return [] }
        return Set(wanted.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }()

    /// Reached this step: ends the process here when the environment asks to.
    func reached() {
        guard Self.killAt.contains(rawValue) else { return }
        kill(getpid(), SIGKILL)
    }
}
