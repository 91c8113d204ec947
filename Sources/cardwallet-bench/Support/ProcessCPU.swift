#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// CPU time of this whole process (every thread: client, in-process server, log pane).
enum ProcessCPU {
    /// Seconds of CPU this process has used so far (`CLOCK_PROCESS_CPUTIME_ID`).
    static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
