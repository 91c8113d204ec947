import ArgumentParser
import CardModels
import CardVCard
import Foundation

/// `cardwallet-bench vcard-probe --file PATH` (hidden): reads a vCard file a card at a time,
/// maps each card and writes it back (into a buffer that is reused), keeping nothing, and
/// prints one JSON line with its memory: the pipeline's peak must not grow with the file.
struct VCardProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vcard-probe",
        abstract: "Stream a vCard file through the reader, the mapping and the writer (run by the bench itself).",
        shouldDisplay: false)

    @Option(help: "The vCard file.")
    var file: String

    func run() throws {
        let before = try ProcessMemory.current()
        guard let handle = FileHandle(forReadingAtPath: file) else { throw ValidationError("cannot read \(file)") }
        defer { try? handle.close() }
        var reader = VCardReader(source: FileByteSource(handle: handle))
        let importer = VCardImporter()
        let writer = VCardWriter()
        var buffer: [UInt8] = []
        var cards = 0
        var written = 0
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        while let item = reader.next() {
            guard case .card(let vcard) = item, case .success(let imported) = importer.card(from: vcard) else {
                continue
            }
            buffer.removeAll(keepingCapacity: true)
            writer.append(
                Card(id: "c\(cards)", fields: imported.fields, createdAt: date, updatedAt: date), photo: imported.photo,
                to: &buffer)
            written += buffer.count
            cards += 1
        }
        let after = try ProcessMemory.current()
        let result = VCardProbeResult(
            cards: cards, bytesWritten: written, baselineBytes: before.residentBytes,
            peakResidentBytes: after.peakResidentBytes)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}

/// What one probe prints.
struct VCardProbeResult: Codable, Sendable {
    /// Cards streamed through.
    var cards: Int
    /// Bytes the writer produced.
    var bytesWritten: Int
    /// `VmRSS` before reading.
    var baselineBytes: Int
    /// `VmHWM` at the end: the peak while streaming.
    var peakResidentBytes: Int
}

/// `cardwallet-bench vcard-corpus --cards N --out FILE` (hidden): writes the realistic mixed
/// corpus of issue 43 (``RealisticCorpus``), to look at, to profile a reader on, or to give a
/// peer by hand.
struct VCardCorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vcard-corpus",
        abstract: "Write the realistic mixed vCard corpus of the vcard figure to a file.",
        shouldDisplay: false)

    @Option(help: "How many cards.")
    var cards = 10_000

    @Option(help: "The seed (default: the recorded runs').")
    var seed: UInt64 = RealisticCorpus.seed

    @Option(help: "The file to write.")
    var out: String

    func run() throws {
        try RealisticCorpus.write(cards: cards, seed: seed, to: out)
    }
}

/// `cardwallet-bench vcard-time --file F [--rounds N]` (hidden): ours alone on a file, as the
/// vcard figure times it (``VCardRun/ours(file:expected:)``), a line per round: for profiling
/// (`perf record … cardwallet-bench vcard-time --file F`) without the peers.
struct VCardTimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vcard-time",
        abstract: "Time our parse and export of a vCard file, round after round.",
        shouldDisplay: false)

    @Option(help: "The vCard file.")
    var file: String

    @Option(help: "How many rounds.")
    var rounds = 5

    @Flag(help: "Time the reader alone (cards read, not mapped), beside the floor.")
    var readerOnly = false

    func run() throws {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        if readerOnly {
            for round in 1...rounds {
                let start = VCardRun.threadCPUTime()
                guard let handle = FileHandle(forReadingAtPath: file) else {
                    throw ValidationError("cannot read \(file)")
                }
                var reader = VCardReader(source: FileByteSource(handle: handle))
                var cards = 0
                while let item = reader.next() { if case .card = item { cards += 1 } }
                try? handle.close()
                let spent = VCardRun.threadCPUTime() - start
                let floor = try VCardRun.floor(file: file).parseCPU
                print(
                    "round \(round): reader alone \(Formatting.format(spent, as: .time)) CPU (\(Formatting.significant(Double(bytes) / 1e6 / spent)) MB/s, \(cards) cards); floor \(Formatting.format(floor, as: .time)) (\(Formatting.significant(Double(bytes) / 1e6 / floor)) MB/s)"
                )
            }
            return
        }
        let cards = VCardDocument.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))).cards.count
        for round in 1...rounds {
            let times = try VCardRun.ours(file: file, expected: cards)
            print(
                "round \(round): parse \(Formatting.format(times.parseCPU, as: .time)) CPU (\(Formatting.significant(Double(bytes) / 1e6 / times.parseCPU)) MB/s), export \(Formatting.format(times.exportCPU, as: .time)) CPU"
            )
        }
    }
}
