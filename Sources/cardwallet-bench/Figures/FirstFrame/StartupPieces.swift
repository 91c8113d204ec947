import CardAPI
import CardCache
import Foundation
import Logging

/// What bounds the first frame, measured: process starts to exit in interleaved rounds —
/// `/bin/true`, three one-line Swift programs (the standard library alone, Foundation, and
/// Foundation's ICU time zone) each built with `swiftc -O` dynamically and with `-static-stdlib`,
/// and `cardwallet --help` — then the loader's own statistics and shared libraries of the
/// `cardwallet` binary, and the cache's open and read in-process.
enum StartupPieces {
    /// The one-line programs: (name, source).
    static let programs: [(name: String, source: String)] = [
        ("Swift hello world", "print(\"hello\")\n"),
        ("Foundation hello world", "import Foundation\nprint(URL(fileURLWithPath: \"/tmp\").lastPathComponent)\n"),
        ("Foundation + ICU time zone", "import Foundation\nprint(TimeZone.current.secondsFromGMT())\n"),
    ]

    static func measure(_ context: BenchContext, cardwallet: String, fixture: FirstFrameFixture) async throws
        -> ResultTable
    {
        var spawned: [(label: String, path: String, arguments: [String])] = [
            ("/bin/true (process start floor)", "/bin/true", []),
            ("cardwallet --help", cardwallet, ["--help"]),
        ]
        var notes: [String] = []
        let folder = try TemporaryFolder("pieces")
        defer { folder.remove() }
        if !context.quick, let swiftc = TerminalFixture.onPath("swiftc") {
            context.progress("first-frame: building the one-line programs with \(swiftc)")
            for (index, program) in programs.enumerated() {
                let source = folder.path + "/p\(index).swift"
                try Data(program.source.utf8).write(to: URL(fileURLWithPath: source))
                for (kind, flags) in [("dynamic", [String]()), ("static stdlib", ["-static-stdlib"])] {
                    let binary = folder.path + "/p\(index)-\(flags.isEmpty ? "dynamic" : "static")"
                    let built = try Spawn.captured(swiftc, ["-O"] + flags + [source, "-o", binary])
                    guard built.status == 0 else {
                        throw BenchError("swiftc could not build \(program.name) (\(kind))")
                    }
                    spawned.append(("\(program.name), \(kind)", binary, []))
                }
            }
            notes.append(
                "One-line programs: \(programs.map { "\($0.name): `\($0.source.replacingOccurrences(of: "\n", with: "; "))`" }.joined(separator: " — ")), built with `\(swiftc) -O` (and `-static-stdlib`)."
            )
        } else {
            notes.append("The one-line Swift programs are built and timed in the full run only (swiftc on PATH).")
        }
        let sampler = Sampler(warmup: context.pick(full: 3, quick: 1), rounds: context.pick(full: 30, quick: 2))
        let cpu = SampleLog(variants: spawned.count)
        let samples = try await sampler.roundRobin(
            measuring: spawned.enumerated().map { index, program in
                { () async throws -> Double in
                    let outcome = try Spawn.timed(program.path, program.arguments)
                    guard outcome.status == 0 else {
                        throw BenchError(
                            "\(program.path) \(program.arguments.joined(separator: " ")) exited with status \(outcome.status)"
                        )
                    }
                    cpu.append(outcome.cpuSeconds, to: index)
                    return outcome.seconds
                }
            })
        // The warm-up runs are not samples.
        let cpuSamples = cpu.values.map { Array($0.suffix(sampler.rounds)) }
        var table = ResultTable(title: "#17 First frame — what bounds it", ratioHeader: "÷ /bin/true")
        for (index, program) in spawned.enumerated() {
            table.rows.append(
                ResultRow(
                    label: program.label + ", spawn to exit", size: "", summary: Summary(samples[index]),
                    quantity: .time, ratio: index == 0 ? nil : Summary.pairedRatios(samples[index], samples[0])))
            table.rows.append(
                ResultRow(
                    label: "  CPU (user + system)", size: "", summary: Summary(cpuSamples[index]), quantity: .time,
                    ratio: index == 0 ? nil : Summary.pairedRatios(cpuSamples[index], cpuSamples[0])))
        }
        table.rows += try loaderRows(cardwallet)
        table.rows.append(try cacheRow(fixture, sampler: sampler))
        table.notes =
            [
                "Spawns: posix_spawn to waitpid, output to /dev/null, \(sampler.rounds) interleaved rounds after \(sampler.warmup) warm-up.",
                "Loader: `LD_DEBUG=statistics cardwallet --help` (glibc counts in TSC cycles) and `ldd cardwallet`.",
                "Cache: CardCache.open + list() of the figure's own cache in this process (the checks, flock, migrations, identity, every summary): the cache's share of the first frame.",
            ] + notes
        return table
    }

    /// The dynamic loader's start-up cycles and relocations for `cardwallet --help`, and the
    /// shared libraries `ldd` lists.
    private static func loaderRows(_ cardwallet: String) throws -> [ResultRow] {
        var rows: [ResultRow] = []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cardwallet)
        process.arguments = ["--help"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_DEBUG": "statistics"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw BenchError("cannot run \(cardwallet) --help: \(error)") }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func number(after label: String) -> Double? {
            guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
            let digits = line.split(separator: ":").last?.split(separator: " ").first
            return digits.flatMap { Double($0) }
        }
        if let cycles = number(after: "total startup time in dynamic loader") {
            rows.append(
                ResultRow(
                    label: "cardwallet --help: dynamic loader, cycles", size: "", summary: Summary(single: cycles),
                    quantity: .count))
        }
        if let relocations = number(after: "number of relative relocations") {
            rows.append(
                ResultRow(
                    label: "  relative relocations", size: "", summary: Summary(single: relocations), quantity: .count))
        }
        let ldd = try Spawn.captured("/usr/bin/ldd", [cardwallet])
        let libraries = ldd.output.split(separator: "\n").filter { $0.contains(".so") }.count
        rows.append(
            ResultRow(
                label: "cardwallet: shared libraries (ldd)", size: "", summary: Summary(single: Double(libraries)),
                quantity: .count))
        return rows
    }

    /// Opening the figure's cache and reading the wallet, in-process.
    private static func cacheRow(_ fixture: FirstFrameFixture, sampler: Sampler) throws -> ResultRow {
        let account = fixture.terminal.account
        guard let server = fixture.environment["CARDWALLET_SERVER"], let url = URL(string: server) else {
            throw BenchError("the fixture has no server")
        }
        let key = CardAPIConfiguration(server: url).serverKey
        let location: CacheLocation
        do { location = try CacheLocation(environment: fixture.environment) } catch {
            throw BenchError("no cache location: \(error)")
        }
        let logger = Logger(label: "bench.first-frame", factory: { _ in SwiftLogNoOpLogHandler() })
        let samples = try sampler.measure { () throws -> Void in
            do {
                let cache = try CardCache.open(server: key, account: account, location: location, logger: logger)
                defer { cache.close() }
                guard let list = try cache.list(), list.cards.count == fixture.terminal.count else {
                    throw BenchError("the cache the wallet filled does not hold \(fixture.terminal.count) cards")
                }
                blackHole(list)
            } catch let error as BenchError {
                throw error
            } catch {
                throw BenchError("cannot read the wallet's cache: \(error)")
            }
        }
        return ResultRow(
            label: "cache: open + read \(Formatting.grouped(fixture.terminal.count)) summaries, in-process", size: "",
            summary: Summary(samples), quantity: .time)
    }
}
