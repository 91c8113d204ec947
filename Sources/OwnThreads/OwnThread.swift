import Foundation

/// Blocking work (SQLite reads at start, a password command's `waitpid`, Tesseract, a
/// pseudo-terminal's `poll` loop) on a thread of its own, never on one of Swift concurrency's
/// cooperative threads: there is one of those a core — two on a small machine — and work that
/// blocks one holds up every task meant to run on it (an in-process server's, the interface's).
/// The system shares the cores between such threads and the rest.
///
/// One helper for every such place, so that each says only what it runs and what it needs (a
/// name for `ps` and debuggers, a larger stack for Tesseract). The keyring's calls, which must
/// also give up after a deadline, keep their own (`KeyringSecretStore`).
public enum OwnThread {
    /// The result of `body`, run on a new thread named `name` (with `stackSize` bytes of stack
    /// when given; the system's default, 512 KiB for a secondary thread here, otherwise). What
    /// `body` throws is thrown here.
    ///
    /// The task waiting here is suspended, not blocked; cancelling it does not stop `body`
    /// (give `body` a flag to read for that).
    public static func run<Value: Sendable, Failure: Error>(
        name: String = "cardwallet.blocking", stackSize: Int? = nil,
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(Failure) -> Value in try body() })
            }
            thread.name = name
            if let stackSize { thread.stackSize = stackSize }
            thread.start()
        }
        return try result.get()
    }
}
