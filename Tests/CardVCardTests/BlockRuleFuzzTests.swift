import CardModels
import CardVCard
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 30's fuzz test: mutants of the whole corpus — bytes flipped, files cut short or with
/// spans cut out, byte-order marks, NULs and CRs inserted, files joined as `cat` joins them,
/// orphaned blocks, line ends converted, UTF-16 with or without a byte-order mark and with a
/// stray last byte — read as the import reads them. For each: no crash; every block is imported
/// or reported (`cards + skipped == blocks`); a mutation that damages nothing loses nothing and
/// one that damages N places loses at most N cards; work and what is kept stay proportional to
/// the input. The seed is in the test's name: a failure names the mutant to replay.
@Suite struct BlockRuleFuzzTests {
    /// The mutants per run: a few thousand.
    static let count = 3_000

    @Test func blockRuleHoldsForMutantsOfTheCorpusSeed3032() throws {
        let samples = try Sample.corpus()
        var random = SeededRandom(seed: 0x3032)
        for index in 0..<Self.count {
            let mutant = Mutant.make(from: samples, &random)
            Self.check(mutant, index: index, chunked: index % 300 == 0)
        }
    }

    /// What must hold for `mutant`.
    static func check(_ mutant: Mutant, index: Int, chunked: Bool) {
        let context = "mutant \(index) (\(mutant.recipe.joined(separator: ", ")))"
        let start = threadCPUTime()
        let document = VCardDocument.read(bytes: mutant.bytes)
        let spent = threadCPUTime() - start
        let imported = document.cards.count
        if document.refusal == nil {
            // Every block is imported or reported.
            #expect(imported + document.skipped == document.statistics.blocks, "\(context)")
        } else {
            // Refused whole, in one line: only an input without any card in it.
            #expect(document.statistics.blocks == 0, "\(context)")
            #expect(document.cards.isEmpty && document.problems.isEmpty && document.warnings.isEmpty, "\(context)")
        }
        if mutant.losses == 0 {
            #expect(imported == mutant.expectedCards, "\(context)")
            if let skipped = mutant.expectedSkipped { #expect(document.skipped == skipped, "\(context)") }
            if mutant.orphans == 0 {
                #expect((document.refusal != nil) == (mutant.expectedBlocks == 0), "\(context)")
            }
        } else {
            #expect(imported >= mutant.expectedCards - mutant.losses, "\(context)")
        }
        let lines = mutant.bytes.reduce(1) { $1 == 10 || $1 == 13 ? $0 + 1 : $0 }
        for problem in document.problems + document.warnings + document.cards.flatMap(\.warnings) {
            #expect(problem.line >= 1 && problem.line <= lines, "\(problem) — \(context)")
        }
        // Bounded work: CPU time linear in the input, with room for a debug build on a busy
        // machine; a quadratic corner or a loop would be far past it.
        #expect(
            spent < 2.0 + Double(mutant.bytes.count) * 20e-6, "\(spent) s for \(mutant.bytes.count) bytes — \(context)")
        // Bounded memory: what a read keeps is in proportion to what it read.
        let kept = document.cards.reduce(0) { total, card in
            total + card.fields.vcardProperties.reduce(0) { $0 + $1.utf8.count } + (card.photo?.bytes.count ?? 0)
                + CardField.allCases.reduce(0) { $0 + card.fields[$1].utf8.count }
        }
        #expect(kept <= 2 * mutant.bytes.count + 4_096, "\(context)")
        if chunked {
            for size in [7, 4_096] {
                let again = VCardDocument.read(source: ChunkedSource(mutant.bytes, size: size))
                #expect(again.cards == document.cards && again.problems == document.problems, "\(context)")
                #expect(again.warnings == document.warnings && again.refusal == document.refusal, "\(context)")
            }
        }
    }

    /// CPU time of this thread, in seconds: unlike a wall clock, other processes do not stretch it.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A fixture with what a clean read of it gives.
struct Sample {
    var name: String
    var bytes: [UInt8]
    /// Whether each block (in file order) is imported when the file is read whole.
    var good: [Bool]
    /// Blocks of the clean read that are skipped.
    var skipped: Int

    static func corpus() throws -> [Sample] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixture.folder.path)
            .filter { $0.hasSuffix(".vcf") }.sorted()
        return try names.map { name in
            let bytes = try Fixture.bytes(name)
            let document = VCardDocument.read(bytes: bytes)
            let imported = Set(document.cards.map(\.line))
            let blocks = BlockScan(bytes).blocks
            #expect(blocks.count == document.statistics.blocks, "\(name)")
            return Sample(
                name: name, bytes: bytes, good: blocks.map { imported.contains($0.line) }, skipped: document.skipped)
        }
    }
}

/// The blocks of a clean input, found the simplest way (lines that are `BEGIN:VCARD` and
/// `END:VCARD`, byte-order marks and NULs aside), as the oracle the reader is held to.
struct BlockScan {
    struct Block {
        /// The line of `BEGIN:VCARD`.
        var line: Int
        /// Where that line starts.
        var start: Int
        /// Just past the `BEGIN:VCARD` text.
        var beginEnd: Int
        /// Just past the `END:VCARD` text.
        var end: Int
    }

    let blocks: [Block]

    init(_ bytes: [UInt8]) {
        var found: [Block] = []
        var line = 1
        var lineStart = 0
        var open: (line: Int, start: Int, beginEnd: Int)?
        var index = 0
        func finishLine(_ end: Int) {
            // Markers are short: longer lines are not looked at (most of a file).
            guard end - lineStart <= 64 else { return }
            let text = bytes[lineStart..<end].filter { $0 != 0 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
            guard text.count >= 9 else { return }
            let word = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
            let last =
                (bytes[lineStart..<end].lastIndex { $0 == UInt8(ascii: "D") || $0 == UInt8(ascii: "d") } ?? end - 1) + 1
            if word.hasSuffix("BEGIN:VCARD"), open == nil {
                open = (line, lineStart, last)
            } else if word == "END:VCARD", let begun = open {
                found.append(Block(line: begun.line, start: begun.start, beginEnd: begun.beginEnd, end: last))
                open = nil
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 10 || byte == 13 {
                finishLine(index)
                // CR…CR LF is one break; a lone CR is one.
                var next = index + 1
                if byte == 13 {
                    var probe = next
                    while probe < bytes.count, bytes[probe] == 13 { probe += 1 }
                    if probe < bytes.count, bytes[probe] == 10 { next = probe + 1 }
                }
                line += 1
                lineStart = next
                index = next
            } else {
                index += 1
            }
        }
        if lineStart < bytes.count { finishLine(bytes.count) }
        blocks = found
    }
}

/// One mutated input and what reading it must give.
struct Mutant {
    var bytes: [UInt8]
    /// The good blocks of the input before any damage.
    var expectedCards: Int
    /// Blocks before any damage (0: the input must be refused).
    var expectedBlocks: Int
    /// The blocks skipped when nothing was damaged, when known.
    var expectedSkipped: Int?
    /// How many cards the damage may cost at most.
    var losses = 0
    /// Orphaned blocks inserted.
    var orphans = 0
    /// What was done, for the failure message.
    var recipe: [String] = []

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let separators: [[UInt8]] = [[], bom, [0], Array("\r\n".utf8), Array("-- forwarded --\r\n".utf8), bom + [0]]
    static let orphan = Array("FN:Orphan\r\nEMAIL:orphan@example.com\r\nEND:VCARD\r\n".utf8)
    static let fragments: [[UInt8]] = [
        bom, [0], [13], [13, 13, 10], Array("=\r\n".utf8), [32], [0xFF], Array("\u{FEFF}".utf8),
    ]

    static func make(from samples: [Sample], _ random: inout SeededRandom) -> Mutant {
        // Smaller files are picked more often than the 49 kB iPhone one, to keep a run short.
        func pick() -> Sample {
            let sample = samples.randomElement(using: &random)!
            return sample.bytes.count > 20_000 && Int.random(in: 0..<4, using: &random) > 0
                ? samples.randomElement(using: &random)! : sample
        }
        var parts = [pick()]
        if Int.random(in: 0..<10, using: &random) < 3 {
            for _ in 0..<Int.random(in: 1...2, using: &random) { parts.append(pick()) }
        }
        var mutant = Mutant(bytes: [], expectedCards: 0, expectedBlocks: 0, expectedSkipped: 0)
        var good: [Bool] = []
        for (number, part) in parts.enumerated() {
            if number > 0 { mutant.bytes += separators.randomElement(using: &random)! }
            if Int.random(in: 0..<4, using: &random) == 0 { mutant.bytes += bom }
            mutant.bytes += part.bytes
            good += part.good
            mutant.expectedSkipped! += part.skipped
            mutant.recipe.append(part.name)
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            let blocks = BlockScan(mutant.bytes).blocks
            let at = blocks.isEmpty ? 0 : blocks.randomElement(using: &random)!.start
            mutant.bytes.insert(contentsOf: orphan, at: at)
            mutant.expectedSkipped! += 1
            mutant.orphans += 1
            mutant.recipe.append("orphan at \(at)")
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            let end = ["\r\n", "\r\r\n", "\r", "\n"].randomElement(using: &random)!
            mutant.bytes = convertLineEnds(mutant.bytes, to: Array(end.utf8))
            mutant.recipe.append("line ends \(end.debugDescription)")
        }
        let blocks = BlockScan(mutant.bytes).blocks
        mutant.expectedBlocks = blocks.count
        mutant.expectedCards = good.filter { $0 }.count
        if Int.random(in: 0..<2, using: &random) == 0 { mutant.damage(blocks: blocks, good: good, &random) }
        if Int.random(in: 0..<7, using: &random) == 0 { mutant.encodeUTF16(&random) }
        return mutant
    }

    /// One kind of damage, and what it may cost.
    mutating func damage(blocks: [BlockScan.Block], good: [Bool], _ random: inout SeededRandom) {
        guard !bytes.isEmpty else { return }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            let flips = Int.random(in: 1...3, using: &random)
            for _ in 0..<flips {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            losses += flips
            recipe.append("\(flips) bytes flipped")
        case 1:
            // Cut short: exactly the good cards whose END came before the cut remain.
            let cut = Int.random(in: 0...bytes.count, using: &random)
            bytes.removeSubrange(cut...)
            let kept = blocks.indices.filter { blocks[$0].end <= cut }
            expectedCards = kept.filter { good[$0] }.count
            expectedBlocks = blocks.filter { $0.beginEnd <= cut }.count
            expectedSkipped = nil
            recipe.append("cut at \(cut)")
        case 2:
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = min(bytes.count, start + Int.random(in: 1...400, using: &random))
            bytes.removeSubrange(start..<end)
            losses += blocks.indices.filter { good[$0] && blocks[$0].start < end && blocks[$0].end > start }.count + 1
            recipe.append("cut out \(start)..<\(end)")
        case 3:
            let inserts = Int.random(in: 1...3, using: &random)
            for _ in 0..<inserts {
                bytes.insert(
                    contentsOf: Self.fragments.randomElement(using: &random)!,
                    at: Int.random(in: 0...bytes.count, using: &random))
            }
            losses += inserts
            recipe.append("\(inserts) fragments inserted")
        default:
            // A byte-order mark, a NUL or CRs before a BEGIN:VCARD: nothing lost.
            guard let block = blocks.randomElement(using: &random) else { return }
            let fragment = [Self.bom, [0], [13, 13, 10], Self.bom + [0, 0]].randomElement(using: &random)!
            bytes.insert(contentsOf: fragment, at: block.start)
            recipe.append("stray bytes before line \(block.line)")
        }
    }

    /// The text as UTF-16, with or without a byte-order mark, perhaps with a stray last byte.
    mutating func encodeUTF16(_ random: inout SeededRandom) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let little = Bool.random(using: &random)
        var out: [UInt8] = []
        if Bool.random(using: &random) { out += little ? [0xFF, 0xFE] : [0xFE, 0xFF] }
        for unit in text.utf16 {
            out += little ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        if Bool.random(using: &random) { out.append(0x0A) }
        bytes = out
        recipe.append(little ? "UTF-16LE" : "UTF-16BE")
    }

    static func convertLineEnds(_ bytes: [UInt8], to end: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 20)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 13 {
                var probe = index + 1
                while probe < bytes.count, bytes[probe] == 13 { probe += 1 }
                index = probe < bytes.count && bytes[probe] == 10 ? probe + 1 : index + 1
                out += end
            } else if byte == 10 {
                index += 1
                out += end
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
