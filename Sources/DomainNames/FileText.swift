#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole text file read with the C library, so that this module stays free of Foundation
/// (it reads one file, the Public Suffix List, once per process).
enum FileText {
    /// Why a file could not be read, as a phrase: "no such file", "too large (…)".
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The text of the file at `path` (invalid UTF-8 repaired), or why it could not be read.
    static func contents(of path: String, limit: Int) -> Result<String, Problem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Problem(description: errorText(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Problem(description: errorText(errno)))
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > limit {
                return .failure(Problem(description: "larger than \(limit >> 20) MiB, which no such list is"))
            }
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// The C library's words for `code`, lower-cased as in a sentence ("no such file or directory").
    private static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let words = String(cString: text)
        return words.prefix(1).lowercased() + words.dropFirst()
    }
}

/// The process's environment, read with the C library.
enum EnvironmentText {
    /// The value of `name`, or `nil` when it is unset or empty.
    static func value(of name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
