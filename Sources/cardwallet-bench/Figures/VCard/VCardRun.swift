import CardModels
import CardVCard
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One side's times in one round, in seconds.
struct SideRound {
    var parse: Double
    var export: Double
    var parseCPU: Double
    var exportCPU: Double
    /// The whole process's CPU, where it differs from the working thread's (the JVM).
    var processCPU: Double?

    var total: Double { parse + export }
    var totalCPU: Double { parseCPU + exportCPU }
}

/// The rounds of one corpus: ours, the floor, the native peers that are installed and vobject,
/// in the same rounds, alternating their order.
struct VCardRun {
    var corpus: VCardFigure.Corpus
    var file: String
    var cards: Int
    var natives: [NativePeer]
    var vobject: Bool
    var folder: TemporaryFolder

    func measure(_ context: BenchContext) throws -> ResultTable {
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        let warmups = context.pick(full: 5, quick: 1)
        context.progress("#15: warming up the native peers on \(corpus.title)")
        let sessions = try natives.map { try NativePeer.Session($0, file: file, warmups: warmups) }
        defer { for session in sessions { session.stop() } }
        let names = ["ours", "floor"] + natives.map(\.name) + (vobject ? ["vobject"] : [])
        var samples = [[SideRound]](repeating: [], count: names.count)
        let rounds = context.pick(full: 7, quick: 1)
        // A warm-up of ours (page cache, lazy tables), then rounds alternating who goes first.
        _ = try Self.ours(file: file, expected: cards)
        var perRound: [String] = []
        var vobjectFailures = 0
        for round in 0..<rounds {
            context.progress("#15: \(corpus.title), round \(round + 1) of \(rounds)")
            let order = Sampler.order(count: names.count, round: round)
            for side in order {
                switch side {
                case 0: samples[0].append(try Self.ours(file: file, expected: cards))
                case 1: samples[1].append(try Self.floor(file: file))
                case let native where native < 2 + sessions.count:
                    let answer = try sessions[native - 2].round()
                    guard answer.cards == cards else {
                        throw BenchError("\(natives[native - 2].name) read \(answer.cards) cards of \(cards)")
                    }
                    samples[native].append(
                        SideRound(
                            parse: answer.parse, export: answer.export, parseCPU: answer.parseCPU,
                            exportCPU: answer.exportCPU,
                            processCPU: (answer.parseProcessCPU ?? 0) + (answer.exportProcessCPU ?? 0)))
                default:
                    let times = try Vobject.round(file: file, folder: folder, allowQP: corpus == .realistic)
                    guard times.cards == cards else {
                        throw BenchError("vobject read \(times.cards) cards of \(cards)")
                    }
                    vobjectFailures = times.failed ?? 0
                    samples[side].append(
                        SideRound(
                            parse: times.parse, export: times.export, parseCPU: times.parseCPU,
                            exportCPU: times.exportCPU))
                }
            }
            let line = roundLine(round: round, order: order.map { names[$0] }, samples: samples, bytes: fileBytes)
            context.progress("#15: " + line)
            perRound.append(line)
        }
        var table = table(samples: samples, names: names, fileBytes: fileBytes, perRound: perRound, context: context)
        if vobjectFailures > 0 {
            table.notes.append(
                "vobject could not serialize \(Formatting.grouped(vobjectFailures)) of the \(Formatting.grouped(cards)) cards it read (its export fails on a vCard 2.1 base64 PHOTO, “a bytes-like object is required”, and on a comma in a 2.1 ORG); its export time is that of the others."
            )
        }
        return table
    }

    /// `round 1 (ours, floor, …): ours 120 + 80 ms CPU, parse 108 MB/s; KContacts 4.8×; …`.
    private func roundLine(round: Int, order: [String], samples: [[SideRound]], bytes: Int) -> String {
        let ours = samples[0][round]
        var line =
            "round \(round + 1) (\(order.joined(separator: ", "))): ours \(ms(ours.parseCPU)) + \(ms(ours.exportCPU)) CPU, parse \(mbps(bytes, ours.parseCPU)) MB/s; floor \(ms(samples[1][round].parseCPU))"
        for side in 2..<samples.count {
            let theirs = samples[side][round]
            let name = side - 2 < natives.count ? natives[side - 2].name : "vobject"
            line +=
                "; \(name) \(ms(theirs.parseCPU)) + \(ms(theirs.exportCPU)), \(Formatting.ratio(theirs.totalCPU / ours.totalCPU))×"
        }
        return line
    }

    private func ms(_ seconds: Double) -> String { Formatting.format(seconds, as: .time) }
    private func mbps(_ bytes: Int, _ seconds: Double) -> String {
        Formatting.significant(Double(bytes) / 1e6 / seconds)
    }

    private func table(
        samples: [[SideRound]], names: [String], fileBytes: Int, perRound: [String], context: BenchContext
    ) -> ResultTable {
        let size = "\(Formatting.grouped(cards)) cards, \(Formatting.format(Double(fileBytes), as: .bytes))"
        let full = !context.quick
        let ours = samples[0]
        let oursTotal = ours.map(\.totalCPU)
        var table = ResultTable(
            title: "#15 vCard — parse and export, CardWallet vs "
                + (names.dropFirst(2).isEmpty ? "(no peer installed)" : names.dropFirst(2).joined(separator: ", "))
                + " — \(corpus.title)",
            ratioHeader: "÷ ours")
        table.rows = [
            ResultRow(
                label: "parse, CPU (ours): read, unfold, decode, map to cards", size: size,
                summary: Summary(ours.map(\.parseCPU)), quantity: .time),
            ResultRow(
                label: "parse, MB/s (ours, CPU time)", size: size,
                summary: Summary(ours.map { Double(fileBytes) / 1e6 / $0.parseCPU }), quantity: .count,
                targets: full && corpus == .realistic
                    ? [.median(.atLeast(VCardFigure.throughputTarget), "≥ 100 MB/s")] : []),
            ResultRow(
                label: "export, CPU (ours): every card as vCard 3.0, folded, CRLF", size: size,
                summary: Summary(ours.map(\.exportCPU)), quantity: .time),
            ResultRow(
                label: "parse + export, CPU (ours)", size: size, summary: Summary(oursTotal), quantity: .time),
            ResultRow(
                label: "floor: one pass over the bytes finding line ends and colons, CPU", size: size,
                summary: Summary(samples[1].map(\.parseCPU)), quantity: .time,
                ratio: Summary.pairedRatios(samples[1].map(\.parseCPU), ours.map(\.parseCPU))),
        ]
        for (offset, native) in natives.enumerated() {
            let theirs = samples[2 + offset]
            table.rows += [
                ResultRow(
                    label: "parse, CPU (\(native.name))", size: size, summary: Summary(theirs.map(\.parseCPU)),
                    quantity: .time, ratio: Summary.pairedRatios(theirs.map(\.parseCPU), ours.map(\.parseCPU))),
                ResultRow(
                    label: "export, CPU (\(native.name))", size: size, summary: Summary(theirs.map(\.exportCPU)),
                    quantity: .time, ratio: Summary.pairedRatios(theirs.map(\.exportCPU), ours.map(\.exportCPU))),
                ResultRow(
                    label: "parse + export, CPU (\(native.name))", size: size, summary: Summary(theirs.map(\.totalCPU)),
                    quantity: .time, ratio: Summary.pairedRatios(theirs.map(\.totalCPU), oursTotal)),
            ]
            if native.name.hasPrefix("ez-vcard") {
                let process = theirs.map { $0.processCPU ?? $0.totalCPU }
                table.rows.append(
                    ResultRow(
                        label: "parse + export, CPU of the whole JVM (\(native.name): GC and JIT threads too)",
                        size: size, summary: Summary(process), quantity: .time,
                        ratio: Summary.pairedRatios(process, oursTotal)))
            }
        }
        if !natives.isEmpty {
            let fastest = ours.indices.map { round in
                natives.indices.map { samples[2 + $0][round].totalCPU }.min()!
            }
            table.rows.append(
                ResultRow(
                    label: "parse + export, CPU: the faster native peer ÷ ours", size: size, summary: nil,
                    quantity: .time, ratio: Summary.pairedRatios(fastest, oursTotal),
                    targets: full && corpus == .realistic
                        ? [.ratio(.atLeast(VCardFigure.nativeTarget), "ours ≤ 0.5× the faster (ratio ≥ 2)")] : []))
        }
        if vobject {
            let theirs = samples[samples.count - 1]
            let target: [Target] =
                full && corpus == .own ? [.ratio(.atLeast(VCardFigure.speedTarget), "≥ 20× vobject")] : []
            table.rows += [
                ResultRow(
                    label: "parse, CPU (vobject: readComponents)", size: size, summary: Summary(theirs.map(\.parseCPU)),
                    quantity: .time, ratio: Summary.pairedRatios(theirs.map(\.parseCPU), ours.map(\.parseCPU)),
                    targets: target),
                ResultRow(
                    label: "export, CPU (vobject: serialize)", size: size, summary: Summary(theirs.map(\.exportCPU)),
                    quantity: .time, ratio: Summary.pairedRatios(theirs.map(\.exportCPU), ours.map(\.exportCPU)),
                    targets: target),
            ]
        }
        table.rows.append(
            ResultRow(
                label: "parse + export, wall clock (ours)", size: size, summary: Summary(ours.map(\.total)),
                quantity: .time))
        for side in 2..<samples.count {
            table.rows.append(
                ResultRow(
                    label: "parse + export, wall clock (\(names[side]))", size: size,
                    summary: Summary(samples[side].map(\.total)), quantity: .time,
                    ratio: Summary.pairedRatios(samples[side].map(\.total), ours.map(\.total))))
        }
        table.notes = notes(fileBytes: fileBytes) + perRound
        return table
    }

    private func notes(fileBytes: Int) -> [String] {
        let file: String
        switch corpus {
        case .own:
            file =
                "The file: \(Formatting.grouped(cards)) cards as CardWallet writes them (vCard 3.0, \(Formatting.format(Double(fileBytes), as: .bytes))), with kept lines (a grouped email and its label, a second phone, a year-less birthday, a social profile) and a 633-byte JPEG on one card in ten."
        case .realistic:
            file =
                "The file: \(Formatting.grouped(cards)) cards of `RealisticCorpus` (seed \(String(RealisticCorpus.seed, radix: 16)), \(Formatting.format(Double(fileBytes), as: .bytes))): Android-style 2.1 (quoted-printable with soft breaks, CHARSET=UTF-8, a tenth Outlook-style windows-1252), Apple-style 3.0 (item groups, X-ABLabel, X-SOCIALPROFILE, escapes, folded), 4.0 (tel: URIs, PREF=1, data: photos; a fifth folded by a naive writer inside UTF-8 sequences); names in 18 scripts; a 1–2 kB JPEG on a fifth of the cards."
        }
        return [
            file,
            "Ours: VCardDocument.read from the file in 64 KiB chunks (every card mapped to the wallet's fields), then VCardWriter (3.0) into one buffer. The floor: the same chunks, one pass counting line ends and colons. KContacts: VCardConverter::parseVCards of the file's bytes, createVCards(v3_0); ez-vcard: Ezvcard.parse(File).all(), Ezvcard.write(…).version(V3_0) into memory — each in a driver process of its own that stays up, warmed by 5 rounds (the JVM's JIT), answering a round on request. vobject: a fresh python3 per round, timed inside\(corpus == .realistic ? ", readComponents(allowQP=True)" : "")",
            "CPU time is the working thread's (CLOCK_THREAD_CPUTIME_ID; the JVM's thread MXBean), which a loaded machine does not stretch; the JVM's GC and JIT threads are in the row that says so. The target is judged on the thread's, the stricter. Ratios: the median of the per-round ratios (min–max); rounds alternate which side goes first.",
        ]
    }

    /// Our parse and export of `file`.
    static func ours(file: String, expected: Int) throws -> SideRound {
        let clock = ContinuousClock()
        let start = clock.now
        let startCPU = threadCPUTime()
        guard let handle = FileHandle(forReadingAtPath: file) else { throw BenchError("cannot read \(file)") }
        let document = VCardDocument.read(source: FileByteSource(handle: handle))
        try? handle.close()
        let parsed = clock.now
        let parsedCPU = threadCPUTime()
        guard document.cards.count == expected, document.problems.isEmpty else {
            throw BenchError(
                "we read \(document.cards.count) cards of \(expected), problems: \(document.problems.prefix(3))")
        }
        let writer = VCardWriter()
        var out: [UInt8] = []
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for (index, card) in document.cards.enumerated() {
            writer.append(
                Card(id: "card_\(index)", fields: card.fields, createdAt: date, updatedAt: date), photo: card.photo,
                to: &out)
        }
        let done = clock.now
        let doneCPU = threadCPUTime()
        blackHole(out)
        return SideRound(
            parse: seconds(from: start, to: parsed), export: seconds(from: parsed, to: done),
            parseCPU: parsedCPU - startCPU, exportCPU: doneCPU - parsedCPU)
    }

    /// The floor: what no reader can beat — the file read in the same chunks, and every byte
    /// looked at once for the line ends and colons a reader must find.
    static func floor(file: String) throws -> SideRound {
        let clock = ContinuousClock()
        let start = clock.now
        let startCPU = threadCPUTime()
        guard let handle = FileHandle(forReadingAtPath: file) else { throw BenchError("cannot read \(file)") }
        var source = FileByteSource(handle: handle)
        var lines = 0
        var colons = 0
        while let chunk = try source.nextChunk() {
            chunk.withUnsafeBufferPointer { bytes in
                for byte in bytes {
                    lines &+= byte == 10 ? 1 : 0
                    colons &+= byte == 58 ? 1 : 0
                }
            }
        }
        try? handle.close()
        let cpu = threadCPUTime() - startCPU
        blackHole(lines &+ colons)
        return SideRound(parse: seconds(from: start, to: clock.now), export: 0, parseCPU: cpu, exportCPU: 0)
    }

    /// The CPU time of the calling thread, in seconds.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
