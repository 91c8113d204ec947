import ArgumentParser
import Synchronization
import Testing

@testable import cardwallet_bench

/// The bench's pure helpers: statistics, targets, number formatting, /proc parsing. (The
/// benchmarks themselves never run in unit tests.)
@Suite struct HarnessTests {
    @Test func summaryOfAnOddCountTakesTheMiddleSample() throws {
        let summary = try #require(Summary([5, 1, 4, 2, 3]))
        #expect(summary == Summary(count: 5, min: 1, median: 3, max: 5))
    }

    @Test func summaryOfAnEvenCountAveragesTheTwoMiddleSamples() throws {
        let summary = try #require(Summary([10, 2, 4, 8]))
        #expect(summary.median == 6)
        #expect(summary.min == 2)
        #expect(summary.max == 10)
    }

    @Test func summaryRefusesNoSamplesAndNonFiniteOnes() {
        #expect(Summary([]) == nil)
        #expect(Summary([1, .nan]) == nil)
        #expect(Summary([1, .infinity]) == nil)
    }

    @Test func pairedRatiosDivideRoundByRound() throws {
        let ratios = try #require(Summary.pairedRatios([2, 9, 4], [1, 3, 4]))
        #expect(ratios == Summary(count: 3, min: 1, median: 2, max: 3))
        #expect(Summary.pairedRatios([1, 2], [1]) == nil)
        #expect(Summary.pairedRatios([1], [0]) == nil)
    }

    @Test func roundRobinAlternatesTheOrderOfVariants() throws {
        #expect(Sampler.order(count: 3, round: 0) == [0, 1, 2])
        #expect(Sampler.order(count: 3, round: 1) == [2, 1, 0])
        var calls: [Int] = []
        let samples = try Sampler(warmup: 1, rounds: 2).roundRobin(timing: [{ calls.append(0) }, { calls.append(1) }])
        #expect(calls == [0, 1, 0, 1, 1, 0])
        #expect(samples.map(\.count) == [2, 2])
    }

    /// A figure whose work fails (a storm's call, a spawn, a server) stops with that error, which
    /// the bench prints. With the closures typed `throws(E)` this crashed the process instead.
    @Test func aFailingVariantStopsTheRunWithItsError() async throws {
        let sampler = Sampler(warmup: 1, rounds: 3)
        var timed = 0
        #expect(throws: BenchError.self) {
            _ = try sampler.roundRobin(timing: [
                { timed += 1 },
                {
                    if timed > 1 { throw BenchError("the second variant failed") }
                },
            ])
        }
        #expect(timed == 2)
        #expect(throws: BenchError.self) {
            _ = try sampler.measure { throw BenchError("the only variant failed") }
        }
        let measured = Mutex(0)
        await #expect(throws: BenchError.self) {
            _ = try await sampler.roundRobin(measuring: [
                {
                    measured.withLock { $0 += 1 }
                    return 1
                },
                { () async throws -> Double in
                    if measured.withLock({ $0 }) > 1 { throw BenchError("a storm failed") }
                    return 2
                },
            ])
        }
        #expect(measured.withLock { $0 } == 2)
    }

    @Test func verdictsFollowEveryTarget() {
        var row = ResultRow(
            label: "x", size: "", summary: Summary(single: 0.0008), quantity: .time, ratio: Summary(single: 1.7))
        #expect(row.verdict == "—")
        row.targets = [.median(.atMost(0.001), "≤ 1 ms")]
        #expect(row.verdict == "PASS")
        row.targets.append(.ratio(.atMost(1.5), "flat"))
        #expect(row.verdict == "MISS")
        row.ratio = nil
        #expect(row.verdict == "—")
    }

    @Test func numbersPrintWithThreeSignificantDigitsInAFittingUnit() {
        #expect(Formatting.format(0.000_412_3, as: .time) == "412 µs")
        #expect(Formatting.format(0.001_234, as: .time) == "1.23 ms")
        #expect(Formatting.format(0.000_000_05, as: .time) == "50.0 ns")
        #expect(Formatting.format(2.5, as: .time) == "2.50 s")
        #expect(Formatting.format(95_123_456, as: .bytes) == "95.1 MB")
        #expect(Formatting.format(12_345.6, as: .rate) == "12,346/s")
        #expect(Formatting.grouped(100_000) == "100,000")
        #expect(Formatting.grouped(-1_000) == "-1,000")
        #expect(Formatting.grouped(999) == "999")
    }

    @Test func processStatusGivesResidentAndPeakMemoryInBytes() throws {
        let status =
            "Name:\tcardwallet-bench\nVmPeak:\t  300000 kB\nVmHWM:\t   90000 kB\nVmRSS:\t   81920 kB\nThreads:\t4\n"
        let memory = try ProcessMemory.parse(status: status)
        #expect(memory == ProcessMemory(residentBytes: 81_920 * 1024, peakResidentBytes: 90_000 * 1024))
        #expect(throws: BenchError.self) { try ProcessMemory.parse(status: "Name:\tx\n") }
    }

    @Test func markdownTablesHaveOneCellPerHeader() {
        let table = ResultTable(
            title: "t", ratioHeader: "÷ base",
            rows: [ResultRow(label: "a", size: "1 card", summary: Summary([1, 2, 3]), quantity: .count)])
        let lines = TablePrinter.lines(table, style: .markdown)
        let header = lines.first { $0.hasPrefix("| measurement") } ?? ""
        let row = lines.first { $0.hasPrefix("| a ") } ?? ""
        #expect(header.filter { $0 == "|" }.count == row.filter { $0 == "|" }.count)
        #expect(row.contains("| 2 |"))
    }
}

/// Parts of the harness added with the part B figures.
@Suite struct HarnessAdditionsTests {
    @Test func everySampleTargetsCheckTheMinAndTheMax() {
        var row = ResultRow(label: "refreshes", size: "", summary: Summary([1, 1, 1]), quantity: .count)
        row.targets = [.everySample(.atMost(1), "exactly 1"), .everySample(.atLeast(1), "")]
        #expect(row.verdict == "PASS")
        #expect(row.targetLabel == "exactly 1")
        row.summary = Summary([1, 2, 1])
        #expect(row.verdict == "MISS")
        row.summary = Summary([0, 1])
        #expect(row.verdict == "MISS")
    }

    @Test func processStatusAlsoGivesTheAnonymousAndFileBackedParts() throws {
        let status = "VmHWM:\t 40000 kB\nVmRSS:\t 34796 kB\nRssAnon:\t 3468 kB\nRssFile:\t 31328 kB\n"
        let memory = try ProcessMemory.parse(status: status)
        #expect(memory.anonymousBytes == 3_468 * 1024)
        #expect(memory.fileBytes == 31_328 * 1024)
        let old = try ProcessMemory.parse(status: "VmHWM:\t 1 kB\nVmRSS:\t 1 kB\n")
        #expect(old.anonymousBytes == nil)
    }

    @Test func figuresCanBeNamedAsArgumentsOrWithTheOption() throws {
        let command = try RunCommand.parse(["layer-overhead", "--figure", "startup", "--quick"])
        #expect(command.names == [.layerOverhead])
        #expect(command.figures == [.startup])
        #expect(command.quick)
        #expect(throws: (any Error).self) { try RunCommand.parse(["no-such-figure"]) }
        #expect(
            FigureID.allCases.map(\.section) == [
                "§1", "§2", "§3", "§4", "§5", "§6", "#15", "#16", "#17", "#17", "#17", "#18", "#28", "#39", "#40",
            ])
        #expect(try RunCommand.parse(["all-view"]).names == [.allView])
        #expect(try RunCommand.parse(["first-frame"]).names == [.firstFrame])
        let scan = try RunCommand.parse(["scan", "--scan-cards", "80", "--scan-seed", "7"])
        #expect(scan.names == [.scan] && scan.scanCards == 80 && scan.scanSeed == 7)
        #expect(throws: (any Error).self) { try RunCommand.parse(["scan", "--scan-cards", "0"]) }
        let carddav = try RunCommand.parse(["carddav", "--carddav-cards", "200"])
        #expect(carddav.names == [.carddav] && carddav.carddavCards == 200)
        #expect(throws: (any Error).self) { try RunCommand.parse(["carddav", "--carddav-cards", "5"]) }
    }

    @Test func aSampleLogKeepsValuesByVariantInOrder() {
        let log = SampleLog(variants: 2)
        log.append(1, to: 0)
        log.append(2, to: 1)
        log.append(3, to: 0)
        #expect(log.values == [[1, 3], [2]])
    }
}
