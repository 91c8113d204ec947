#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends whatever the process writes to some file descriptors (a stray `print`, a library's
/// warning on stderr) to a file while the interface owns the screen, and puts them back after.
///
/// Curses itself writes through its own duplicate of the terminal, so it is unaffected.
struct StrayOutput {
    /// Where the writes go.
    let path: String
    private let file: Int32
    /// Each redirected descriptor and a close-on-exec copy of what it was.
    private(set) var saved: [(descriptor: Int32, original: Int32)] = []
    private(set) var isRedirected = false

    /// Opens `path` (appending, created 0600) and redirects `descriptors` to it.
    /// - Throws: ``CursesTerminalError/cannotOpenStrayOutput(path:reason:)`` when the file
    ///   cannot be opened; nothing is redirected then.
    init(path: String, descriptors: [Int32]) throws(CursesTerminalError) {
        self.path = path
        let file = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            throw .cannotOpenStrayOutput(path: path, reason: SystemError.describe(errno))
        }
        self.file = file
        for descriptor in descriptors {
            let original = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
            guard original >= 0 else { continue }
            saved.append((descriptor, original))
        }
        attach()
    }

    /// The copy of `descriptor` as it was before the redirection, or -1.
    func original(of descriptor: Int32) -> Int32 {
        saved.first { $0.descriptor == descriptor }?.original ?? -1
    }

    /// Points the descriptors at the file (again).
    mutating func attach() {
        guard !isRedirected else { return }
        _ = fflush(nil)  // what stdio buffered so far belongs where it was going
        for entry in saved { _ = dup2(file, entry.descriptor) }
        isRedirected = true
    }

    /// Points the descriptors back at what they were, keeping the file for ``attach()``.
    mutating func detach() {
        guard isRedirected else { return }
        _ = fflush(nil)  // what stdio buffered meanwhile belongs in the file
        for entry in saved { _ = dup2(entry.original, entry.descriptor) }
        isRedirected = false
    }

    /// Detaches for good and closes the file and the copies.
    mutating func end() {
        detach()
        for entry in saved { _ = close(entry.original) }
        saved = []
        _ = close(file)
    }
}

/// Text for `errno` values.
enum SystemError {
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
