import CTesseract
import CardScan
import CardScanCore
import Foundation

/// §7 (issue 18): `cardwallet scan` on business cards rendered from known fields by
/// scripts/make-scan-cards.py — per-field accuracy against what was printed, time per photo,
/// and what each preparation step and setting is worth, measured side by side on the same
/// photos (each photo read by every variant in turn, the order rotating).
struct ScanFigure: Figure {
    /// One way of scanning, compared with the standard one.
    struct Variant: Sendable {
        var label: String
        var languages: OCRLanguages
        var tuning: ScanTuning
        /// Whether Tesseract's OpenMP threads are left as Debian's build runs them.
        var openMP = false
    }

    static let targets: [String: Double] = [
        "email": 95, "phone": 95, "website": 95, "name": 90, "company": 80, "title": 80,
    ]

    static func variants(quick: Bool) -> [Variant] {
        let standard = Variant(
            label:
                "standard: kor+eng, background flattened, deskewed, sparse text, Korean names read again at 1,100 px",
            languages: .standard,
            tuning: .standard)
        if quick { return [standard] }
        var flat = ScanTuning.standard
        flat.preparation.normaliseBackground = false
        var skewed = ScanTuning.standard
        skewed.preparation.deskew = false
        var auto = ScanTuning.standard
        auto.pageSegmentation = PSM_AUTO
        var large = ScanTuning.standard
        large.preparation.longSide = 2200
        var sauvola = ScanTuning.standard
        sauvola.variables = ["thresholding_method": "2"]
        var oneReading = ScanTuning.standard
        oneReading.nameReadingLongSide = nil
        return [
            standard,
            Variant(
                label: "English leading (eng+kor)", languages: try! OCRLanguages(parsing: "eng+kor"), tuning: .standard),
            Variant(
                label: "no second reading of a Korean card's name at 1,100 px", languages: .standard,
                tuning: oneReading),
            Variant(label: "no background flattening", languages: .standard, tuning: flat),
            Variant(label: "no deskew", languages: .standard, tuning: skewed),
            Variant(label: "automatic page segmentation (PSM 3)", languages: .standard, tuning: auto),
            Variant(label: "scaled to 2,200 px instead of 1,500", languages: .standard, tuning: large),
            Variant(label: "Sauvola binarisation instead of Otsu", languages: .standard, tuning: sauvola),
            Variant(
                label: "OpenMP threads as Debian's libtesseract runs them", languages: .standard, tuning: .standard,
                openMP: true),
        ]
    }

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let folder = try TemporaryFolder("scan")
        defer { folder.remove() }
        let count = context.pick(full: context.scanCards, quick: 3)
        context.progress("scan: rendering \(count) cards")
        let corpus = try ScanCorpus.make(count: count, seed: context.scanSeed, in: try folder.folder("cards"))
        let variants = Self.variants(quick: context.quick)
        var loads: [Double] = []
        var scanners: [CardScanner] = []
        for variant in variants {
            let scanner = CardScanner(languages: variant.languages, limits: ScanLimits(), tuning: variant.tuning)
            let start = ContinuousClock.now
            do {
                try scanner.prepare()
            } catch {
                throw BenchError("Tesseract does not start: \(error)")
            }
            loads.append(seconds(from: start, to: .now))
            scanners.append(scanner)
        }
        var scores = Array(repeating: FieldScore(), count: variants.count)
        var wall = Array(repeating: [Double](), count: variants.count)
        var cpu = Array(repeating: [Double](), count: variants.count)
        var failures: [String] = []
        for (index, card) in corpus.cards.enumerated() {
            if index % 10 == 0 { context.progress("scan: card \(index + 1) of \(corpus.cards.count)") }
            for position in Sampler.order(count: variants.count, round: index) {
                let variant = variants[position]
                if variant.openMP { setenv("CARDWALLET_SCAN_THREADS", "openmp", 1) }
                defer { if variant.openMP { unsetenv("CARDWALLET_SCAN_THREADS") } }
                let start = ContinuousClock.now
                let cpuStart = ProcessCPU.seconds()
                let scanned: ScannedCard?
                do {
                    scanned = try await scanners[position].scan(
                        photoAt: URL(fileURLWithPath: corpus.folder + "/" + card.file))
                } catch {
                    scanned = nil
                    if position == 0 { failures.append("\(card.file): \(error)") }
                }
                wall[position].append(seconds(from: start, to: .now))
                cpu[position].append(ProcessCPU.seconds() - cpuStart)
                scores[position].add(card, scanned: scanned?.fields)
            }
        }
        let (right, total) = scores[0].overall
        // Broken, not merely inaccurate: the quick run's three cards read almost entirely.
        guard total > 0, right * 2 >= total else {
            throw BenchError(
                "scan read only \(right) of \(total) values right: \(scores[0].misses.prefix(5)) \(failures)")
        }
        // Targets only at full size: three cards say nothing of a percentage.
        let withTargets = !context.quick
        return [
            accuracyTable(corpus, scores[0], failures: failures, targets: withTargets),
            timeTable(corpus, wall[0], cpu[0], load: loads[0], targets: withTargets),
            variantTable(variants, scores, wall: wall, cpu: cpu),
        ]
    }

    private func accuracyTable(_ corpus: ScanCorpus, _ score: FieldScore, failures: [String], targets: Bool)
        -> ResultTable
    {
        var table = ResultTable(
            title: "§7 Scan a paper card — per-field accuracy, \(corpus.cards.count) generated cards", ratioHeader: "")
        for field in ScanCorpus.fields {
            guard let percent = score.percent(field) else { continue }
            let target =
                Self.targets[field].flatMap { targets ? [Target.median(.atLeast($0), "≥ \(Int($0)) %")] : nil } ?? []
            table.rows.append(
                ResultRow(
                    label:
                        "\(field), % \(field == "address" ? "right (loosely: no punctuation, accents or case)" : "exact")",
                    size: "\(score.total[field] ?? 0) cards", summary: Summary(single: percent), quantity: .count,
                    targets: target))
        }
        let korean = corpus.cards.filter { $0.lang == "kor" }.count
        let endings = Set(corpus.cards.compactMap(\.ending))
        table.notes =
            [
                "scripts/make-scan-cards.py --seed \(corpus.seed) --count \(corpus.cards.count): \(corpus.cards.count - korean) Latin cards (DejaVu) and \(korean) Korean ones (Nanum); three layouts; ±3° turn, blur, JPEG quality 45–90, noise, shadows, tables, EXIF orientation; domains under \(endings.count) different endings from the Public Suffix List (\(endings.sorted().prefix(8).joined(separator: ", ")), …).",
                "A field counts when it is printed or when the scan found one (a made-up value counts wrong). Exact: email and website ignoring case, phone as printed; name, company, title, department after Unicode compatibility folding (㈜ = (주)) with spaces collapsed.",
            ] + (failures.isEmpty ? [] : ["Photos that failed: " + failures.joined(separator: "; ")])
            + ["Misses: " + (score.misses.isEmpty ? "none" : score.misses.joined(separator: "; "))]
        return table
    }

    private func timeTable(_ corpus: ScanCorpus, _ wall: [Double], _ cpu: [Double], load: Double, targets: Bool)
        -> ResultTable
    {
        var table = ResultTable(title: "§7 Scan a paper card — time per photo", ratioHeader: "")
        table.rows = [
            ResultRow(
                label: "scan one photo: read, prepare, OCR, fields (wall)", size: "\(wall.count) photos",
                summary: Summary(wall), quantity: .time,
                targets: targets ? [.everySample(.atMost(2), "≤ 2 s each")] : []),
            ResultRow(
                label: "  CPU time of the process meanwhile", size: "\(cpu.count) photos", summary: Summary(cpu),
                quantity: .time),
            ResultRow(
                label: "start Tesseract with kor+eng (once per scanner)", size: "", summary: Summary(single: load),
                quantity: .time),
        ]
        table.notes = [
            "Photos of 0.9–2.6 megapixels; each is scanned by a fresh thread, one at a time; the machine's other load shows in the header's load average."
        ]
        return table
    }

    private func variantTable(_ variants: [Variant], _ scores: [FieldScore], wall: [[Double]], cpu: [[Double]])
        -> ResultTable
    {
        var table = ResultTable(
            title: "§7 Scan a paper card — what each step is worth (same photos, interleaved)",
            ratioHeader: "time ÷ standard")
        for (index, variant) in variants.enumerated() {
            let (right, total) = scores[index].overall
            let percent = total > 0 ? Double(right) * 100 / Double(total) : 0
            let fields = ["name", "company", "email", "phone"].compactMap { field in
                scores[index].percent(field).map { "\(field) \(String(format: "%.0f", $0))" }
            }.joined(separator: ", ")
            table.rows.append(
                ResultRow(
                    label: "\(variant.label): \(String(format: "%.1f", percent)) % right (\(fields))", size: "wall",
                    summary: Summary(wall[index]), quantity: .time,
                    ratio: index == 0 ? nil : Summary.pairedRatios(wall[index], wall[0])))
            table.rows.append(
                ResultRow(
                    label: "  CPU", size: "", summary: Summary(cpu[index]), quantity: .time,
                    ratio: index == 0 ? nil : Summary.pairedRatios(cpu[index], cpu[0])))
        }
        table.notes = [
            "Each photo is read by every variant in a rotating order, so the machine's load falls on all alike. Percentages: all eight fields scored as in the accuracy table."
        ]
        return table
    }
}
