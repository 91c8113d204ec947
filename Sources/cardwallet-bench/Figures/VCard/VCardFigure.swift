import CardModels
import CardVCard
import Foundation

/// §7 (issue 15): parse and export of 10,000 vCards against vobject on the same file, as ratios
/// measured in interleaved rounds; and the memory of streaming a file 4× larger.
struct VCardFigure: Figure {
    /// The issue's target: at least 20× vobject's speed.
    static let speedTarget = 20.0
    /// Memory is "flat" when the 4× file peaks at most 25 % higher.
    static let flatTarget = 1.25

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cards = context.pick(full: 10_000, quick: 300)
        let folder = try TemporaryFolder("vcard")
        defer { folder.remove() }
        let file = folder.path + "/cards.vcf"
        context.progress("§7: writing \(cards) cards")
        try VCardFixture.write(cards: cards, to: file)
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0

        let skip = Vobject.unavailable()
        if skip != nil, !context.quick {
            throw BenchError("§7 compares with vobject: \(skip!)")
        }
        let rounds = context.pick(full: 5, quick: 1)
        var ourParse: [Double] = []
        var ourExport: [Double] = []
        var theirParse: [Double] = []
        var theirExport: [Double] = []
        // A warm-up of ours (page cache, lazy tables), then rounds alternating who goes first.
        _ = try Self.ours(file: file, expected: cards)
        for round in 0..<rounds {
            context.progress("§7: round \(round + 1) of \(rounds)")
            let order = Sampler.order(count: 2, round: round)
            for side in order {
                if side == 0 {
                    let times = try Self.ours(file: file, expected: cards)
                    ourParse.append(times.parse)
                    ourExport.append(times.export)
                } else if skip == nil {
                    let times = try Vobject.round(file: file, folder: folder)
                    guard times.cards == cards else { throw BenchError("vobject read \(times.cards) cards of \(cards)") }
                    theirParse.append(times.parse)
                    theirExport.append(times.export)
                }
            }
        }
        let size = "\(Formatting.grouped(cards)) cards"
        let full = !context.quick
        var speed = ResultTable(
            title: "§7 vCard — parse and export, CardWallet vs vobject" + (skip.map { " (\($0): skipped)" } ?? ""),
            ratioHeader: "vobject ÷ ours")
        speed.rows = [
            ResultRow(label: "parse: read, unfold, decode, map to cards (ours)", size: size, summary: Summary(ourParse), quantity: .time,
                      ratio: Summary.pairedRatios(theirParse, ourParse),
                      targets: full ? [.ratio(.atLeast(Self.speedTarget), "≥ 20× vobject")] : []),
            ResultRow(label: "parse: readComponents (vobject)", size: size, summary: Summary(theirParse), quantity: .time),
            ResultRow(label: "export: write every card, folded, CRLF (ours)", size: size, summary: Summary(ourExport), quantity: .time,
                      ratio: Summary.pairedRatios(theirExport, ourExport),
                      targets: full ? [.ratio(.atLeast(Self.speedTarget), "≥ 20× vobject")] : []),
            ResultRow(label: "export: serialize (vobject)", size: size, summary: Summary(theirExport), quantity: .time),
        ]
        speed.notes = [
            "The file: \(Formatting.grouped(cards)) cards as CardWallet writes them (vCard 3.0, \(Formatting.format(Double(fileBytes), as: .bytes))), with kept lines (a grouped email and its label, a second phone, a year-less birthday, a social profile) and a 633-byte JPEG on one card in ten.",
            "Ours: VCardDocument.read from the file in 64 KiB chunks (every card mapped to the wallet's fields), then VCardWriter into one buffer. vobject \(Self.vobjectVersion() ?? ""): a fresh python3 per round, timed inside (file read + readComponents, then serialize of each card), so interpreter start-up is not counted.",
            "\(rounds) round\(rounds == 1 ? "" : "s") after one warm-up of ours, alternating which side runs first; the ratio is the median of the per-round ratios.",
        ]

        let sizes = [cards, cards * 4]
        let second = folder.path + "/cards-4x.vcf"
        try VCardFixture.write(cards: sizes[1], to: second)
        context.progress("§7: memory probes")
        let probes = try [file, second].map { try Self.probe(file: $0, executable: context.benchExecutable) }
        for (probe, expected) in zip(probes, sizes) where probe.cards != expected {
            throw BenchError("the vCard probe streamed \(probe.cards) cards of \(expected)")
        }
        var memory = ResultTable(title: "§7 vCard — peak memory streaming a file through reader, mapping and writer", ratioHeader: "÷ \(size)")
        memory.rows = zip(sizes, probes).enumerated().map { position, pair in
            ResultRow(
                label: "VmHWM, one fresh child process", size: "\(Formatting.grouped(pair.0)) cards",
                summary: Summary(single: Double(pair.1.peakResidentBytes)), quantity: .bytes,
                ratio: position == 0 ? nil : Summary(single: Double(pair.1.peakResidentBytes) / Double(probes[0].peakResidentBytes)),
                targets: full && position == 1 ? [.ratio(.atMost(Self.flatTarget), "flat (≤ 1.25)")] : [])
        }
        memory.notes = [
            "`cardwallet-bench vcard-probe --file F` reads F a card at a time (VCardReader over 64 KiB chunks), maps it, writes it into a reused buffer and keeps nothing; baseline before reading \(Formatting.format(Double(probes[0].baselineBytes), as: .bytes)).",
            "`cardwallet import` holds the cards it read until it has compared them with the wallet (a plan needs them all); the reader itself never holds more than one card.",
        ]
        return [speed, memory]
    }

    /// Our parse and export of `file`, in seconds.
    static func ours(file: String, expected: Int) throws -> (parse: Double, export: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        guard let handle = FileHandle(forReadingAtPath: file) else { throw BenchError("cannot read \(file)") }
        let document = VCardDocument.read(source: FileByteSource(handle: handle))
        try? handle.close()
        let parsed = clock.now
        guard document.cards.count == expected, document.problems.isEmpty else {
            throw BenchError("we read \(document.cards.count) cards of \(expected), problems: \(document.problems.prefix(3))")
        }
        let writer = VCardWriter()
        var out: [UInt8] = []
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for (index, card) in document.cards.enumerated() {
            writer.append(Card(id: "card_\(index)", fields: card.fields, createdAt: date, updatedAt: date), photo: card.photo, to: &out)
        }
        let done = clock.now
        blackHole(out)
        return (seconds(from: start, to: parsed), seconds(from: parsed, to: done))
    }

    static func probe(file: String, executable: String) throws -> VCardProbeResult {
        let (status, output) = try Spawn.captured(executable, ["vcard-probe", "--file", file])
        guard status == 0, let line = output.split(separator: "\n").last,
            let result = try? JSONDecoder().decode(VCardProbeResult.self, from: Data(line.utf8))
        else { throw BenchError("the vCard probe of \(file) exited with status \(status)") }
        return result
    }

    static func vobjectVersion() -> String? {
        guard let python = Vobject.python(),
            let result = try? Spawn.captured(python, ["-c", "import vobject; print(vobject.VERSION)"]), result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
