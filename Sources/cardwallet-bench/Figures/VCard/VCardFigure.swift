import ArgumentParser
import CardModels
import CardVCard
import Foundation

/// #15 (issue 15) and issue 43: parse and export of 10,000 vCards, ours against vobject,
/// KDE KContacts and ez-vcard on the same file, in the same interleaved rounds; on the bench's
/// own corpus (cards as CardWallet writes them) and on a realistic mixed one
/// (``RealisticCorpus``); the floor (one pass over the bytes); and the memory of streaming a
/// file 4× larger.
struct VCardFigure: Figure {
    /// Issue 15's target: at least 20× vobject's speed.
    static let speedTarget = 20.0
    /// Issue 43's: parse + export CPU at most 0.5× the faster native peer's…
    static let nativeTarget = 2.0
    /// … and parse at 100 MB/s or more.
    static let throughputTarget = 100.0
    /// Memory is "flat" when the 4× file peaks at most 25 % higher.
    static let flatTarget = 1.25

    /// Which corpora to run (`--vcard-corpus`).
    enum Corpus: String, CaseIterable, Sendable, ExpressibleByArgument {
        case own, realistic

        var title: String {
            switch self {
            case .own: "the bench's own corpus"
            case .realistic: "the realistic mixed corpus"
            }
        }
    }

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let count = context.vcardCards ?? context.pick(full: 10_000, quick: 300)
        let corpora = context.vcardCorpora ?? Corpus.allCases
        let folder = try TemporaryFolder("vcard")
        defer { folder.remove() }
        let vobjectMissing = Vobject.unavailable()
        if let vobjectMissing, !context.quick {
            throw BenchError("#15 compares with vobject: \(vobjectMissing)")
        }
        let buildFolder = NativePeer.buildFolder(benchExecutable: context.benchExecutable)
        context.progress("#15: building the native peers' drivers (when installed)")
        let (natives, skipped) = NativePeer.available(buildFolder: buildFolder)

        var tables: [ResultTable] = []
        var files: [(corpus: Corpus, path: String)] = []
        for corpus in corpora {
            let file = folder.path + "/\(corpus.rawValue).vcf"
            context.progress("#15: writing \(count) cards (\(corpus.title))")
            var checks: [String] = []
            switch corpus {
            case .own:
                try VCardFixture.write(cards: count, to: file)
            case .realistic:
                let expected = try RealisticCorpus.write(cards: count, to: file)
                context.progress("#15: checking ours against the corpus")
                checks.append(try CorpusCheck.ours(file: file, expected: expected))
                if let ez = natives.first(where: { $0.name.hasPrefix("ez-vcard") }) {
                    context.progress("#15: comparing ours with \(ez.name), card by card")
                    checks.append(try CorpusCheck.ezVCard(ez, file: file, expected: expected))
                }
            }
            files.append((corpus, file))
            let run = VCardRun(
                corpus: corpus, file: file, cards: count, natives: natives, vobject: vobjectMissing == nil,
                folder: folder)
            var table = try run.measure(context)
            table.notes += checks
            table.notes += skipped.map { "Skipped: \($0)." }
            tables.append(table)
        }

        let sizes = [count, count * 4]
        context.progress("#15: memory probes")
        for (corpus, file) in files {
            let second = folder.path + "/\(corpus.rawValue)-4x.vcf"
            switch corpus {
            case .own: try VCardFixture.write(cards: sizes[1], to: second)
            case .realistic: try RealisticCorpus.write(cards: sizes[1], to: second)
            }
            let probes = try [file, second].map { try Self.probe(file: $0, executable: context.benchExecutable) }
            for (probe, expected) in zip(probes, sizes) where probe.cards != expected {
                throw BenchError("the vCard probe streamed \(probe.cards) cards of \(expected)")
            }
            try? FileManager.default.removeItem(atPath: second)
            let size = "\(Formatting.grouped(count)) cards"
            var memory = ResultTable(
                title: "#15 vCard — peak memory streaming a file through reader, mapping and writer (\(corpus.title))",
                ratioHeader: "÷ \(size)")
            memory.rows = zip(sizes, probes).enumerated().map { position, pair in
                ResultRow(
                    label: "VmHWM, one fresh child process", size: "\(Formatting.grouped(pair.0)) cards",
                    summary: Summary(single: Double(pair.1.peakResidentBytes)), quantity: .bytes,
                    ratio: position == 0
                        ? nil : Summary(single: Double(pair.1.peakResidentBytes) / Double(probes[0].peakResidentBytes)),
                    targets: !context.quick && position == 1 ? [.ratio(.atMost(Self.flatTarget), "flat (≤ 1.25)")] : [])
            }
            memory.notes = [
                "`cardwallet-bench vcard-probe --file F` reads F a card at a time (VCardReader over 64 KiB chunks), maps it, writes it into a reused buffer and keeps nothing; baseline before reading \(Formatting.format(Double(probes[0].baselineBytes), as: .bytes)).",
                "`cardwallet import` holds the cards it read until it has compared them with the wallet (a plan needs them all); the reader itself never holds more than one card.",
            ]
            tables.append(memory)
        }
        return tables
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
            let result = try? Spawn.captured(python, ["-c", "import vobject; print(vobject.VERSION)"]),
            result.status == 0
        else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
