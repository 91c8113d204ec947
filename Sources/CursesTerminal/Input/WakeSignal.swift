import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-pipe that lets any thread end the main loop's wait for a key: ``wake()`` makes the
/// read end readable, and the loop polls it beside the terminal (see
/// ``CursesBackend/nextEvent(timeoutMilliseconds:)``).
///
/// Wake-ups coalesce: at most one byte is in the pipe however many actions arrive before the
/// loop looks, so a burst of log lines costs one `write(2)`. The descriptors stay open for the
/// object's lifetime, so a late ``wake()`` (a request finishing after the terminal was
/// restored) never writes to a descriptor number that was reused.
final class WakeSignal: Sendable {
    /// The end ``CursesBackend`` polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    /// Whether a byte was written that ``clear()`` has not yet taken.
    private let pending = Atomic<Bool>(false)

    /// A new pipe, both ends non-blocking and close-on-exec; `nil` when the system has no
    /// descriptors left (the loop then wakes only at its key timeout).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        _ = close(readDescriptor)
        _ = close(writeDescriptor)
    }

    /// Makes ``readDescriptor`` readable until the next ``clear()``. Callable from any thread;
    /// never blocks.
    func wake() {
        guard !pending.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0, errno == EINTR {}
    }

    /// Whether a wake-up is waiting to be taken (for tests).
    var isPending: Bool { pending.load(ordering: .sequentiallyConsistent) }

    /// Takes the pending wake-up, if any. Whoever calls it must then look at what wake-ups
    /// announce (the inbox). The pipe is emptied before the flag is lowered, so a racing
    /// ``wake()`` either writes a new byte or saw the flag still raised, and then its action was
    /// queued before this lowered it: the look that follows finds it.
    func clear() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count < 0, errno == EINTR { continue }
            break
        }
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
