import Foundation

/// The facts about the machine a result depends on, printed at the top of every run.
struct MachineInfo: Sendable {
    var date: String
    var cores: Int
    var memory: String
    var cpu: String
    var loadAverage: String
    var build: String

    /// What this machine and build are, now.
    static func current() -> MachineInfo {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let gigabytes = Double(ProcessInfo.processInfo.physicalMemory) / 1e9
        #if DEBUG
            let build = "debug build (numbers are not representative)"
        #else
            let build = "release build"
        #endif
        return MachineInfo(
            date: formatter.string(from: Date()) + " UTC",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memory: String(format: "%.1f GB", gigabytes),
            cpu: model,
            loadAverage: loadAverage() ?? "unknown",
            build: build)
    }

    /// The 1, 5 and 15 minute load averages, from `/proc/loadavg`.
    static func loadAverage() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The header lines of a run.
    func lines(quick: Bool, style: TablePrinter.Style) -> [String] {
        let facts = [
            "date: \(date)", "machine: \(cores) cores, \(memory) RAM, \(cpu)",
            "load average at start (1/5/15 min): \(loadAverage)", "\(build)\(quick ? ", --quick" : "")",
        ]
        switch style {
        case .text: return ["CardWallet benchmarks"] + facts.map { "  " + $0 } + [""]
        case .markdown: return facts.map { "- " + $0 } + [""]
        }
    }
}
