import Foundation

/// A process's memory, from `/proc/PID/status` (Linux).
struct ProcessMemory: Codable, Equatable, Sendable {
    /// Resident set size now (`VmRSS`), in bytes.
    var residentBytes: Int
    /// The highest resident set size so far (`VmHWM`), in bytes.
    var peakResidentBytes: Int
    /// The anonymous part of ``residentBytes`` (`RssAnon`: heap, stacks), when the kernel says.
    var anonymousBytes: Int? = nil
    /// The file-backed part (`RssFile`: the program's and its libraries' pages), when the kernel says.
    var fileBytes: Int? = nil

    /// The memory of this process now.
    ///
    /// - Throws: ``BenchError`` when `/proc/self/status` cannot be read or lacks the fields.
    static func current() throws -> ProcessMemory {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            throw BenchError("cannot read /proc/self/status (memory figures need Linux)")
        }
        return try parse(status: text)
    }

    /// Reads `VmRSS` and `VmHWM`, and `RssAnon` and `RssFile` when present (all given in kB,
    /// which the kernel means as KiB), from the text of a `/proc/PID/status` file.
    static func parse(status text: String) throws -> ProcessMemory {
        func kibibytes(_ field: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        }
        guard let rss = kibibytes("VmRSS"), let hwm = kibibytes("VmHWM") else {
            throw BenchError("/proc/self/status has no VmRSS or VmHWM line")
        }
        return ProcessMemory(
            residentBytes: rss * 1024, peakResidentBytes: hwm * 1024,
            anonymousBytes: kibibytes("RssAnon").map { $0 * 1024 },
            fileBytes: kibibytes("RssFile").map { $0 * 1024 })
    }
}
