import Glibc

/// Sends `signal` to the calling thread with it unblocked there, so it is delivered before this
/// returns. `kill(getpid(), …)` may leave the signal pending when every thread of the test
/// process blocks it (libdispatch's workers do), which made such tests hang until a deadline.
func deliverSignalToThisThread(_ signal: Int32) {
    var unblock = sigset_t()
    var previous = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signal)
    pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
    pthread_kill(pthread_self(), signal)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}
