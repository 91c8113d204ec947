/// §2: N concurrent `card(id:)` calls on a client whose access token has expired — once where
/// the client knows (it refreshes before sending) and once where only the server does (401, then
/// the refresh, then a retry) — against the same N with a fresh token, in interleaved rounds.
/// The server must see exactly one `POST /auth/refresh` per storm, and every call must succeed.
/// Since issue 14, card requests take their token only when admitted (8 at once, the live
/// transport's connections per host), so a server-side expiry costs at most 8 answers of 401.
struct RefreshStormFigure: Figure {
    /// Wall time ÷ fresh when the client knows the token expired (issue 6).
    static let target = 1.5
    /// Wall time ÷ fresh when only the server knows (issue 14).
    static let serverOnlyTarget = 1.2

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let sizes = context.pick(full: [50, 200, 1_000], quick: [20])
        let sampler = Sampler(warmup: 1, rounds: context.pick(full: 15, quick: 2))
        let fixture = try await StormFixture.start()
        let table: ResultTable
        do {
            table = try await measure(sizes: sizes, sampler: sampler, fixture: fixture, context: context)
        } catch {
            _ = await fixture.stop()
            throw error
        }
        let lines = await fixture.stop()
        guard lines > 0 else { throw BenchError("the log pane's subscriber received no event") }
        return [table]
    }

    private func measure(sizes: [Int], sampler: Sampler, fixture: StormFixture, context: BenchContext) async throws
        -> ResultTable
    {
        let starts = StormFixture.Start.allCases
        var table = ResultTable(
            title: "§2 Refresh storm — N concurrent card(id:) calls on one client", ratioHeader: "÷ fresh token")
        for size in sizes {
            context.progress("refresh-storm: N = \(Formatting.grouped(size))")
            let refreshes = SampleLog(variants: starts.count)
            let rejected = SampleLog(variants: starts.count)
            let saves = SampleLog(variants: 1)
            let wall = try await sampler.roundRobin(
                measuring: starts.enumerated().map { index, start in
                    {
                        if start == .expiredOnServer { saves.append(try await fixture.probeSave(), to: 0) }
                        try await fixture.prepare(start)
                        let (seconds, counts) = try await fixture.storm(size)
                        let expected = start == .fresh ? 0 : 1
                        if context.quick, counts.refreshes != expected {
                            throw BenchError(
                                "a storm of \(size) (\(start.label)) made \(counts.refreshes) refresh calls; expected \(expected)"
                            )
                        }
                        if context.quick, counts.rejected > fixture.admissionLimit {
                            throw BenchError(
                                "a storm of \(size) (\(start.label)) had \(counts.rejected) answers of 401; the admission allows \(fixture.admissionLimit)"
                            )
                        }
                        refreshes.append(Double(counts.refreshes), to: index)
                        rejected.append(Double(counts.rejected), to: index)
                        return seconds
                    }
                })
            let sizeLabel = "N = \(Formatting.grouped(size))"
            let targeted = !context.quick
            for (index, start) in starts.enumerated() {
                let isStorm = start != .fresh
                let target = start == .expiredOnServer ? Self.serverOnlyTarget : Self.target
                table.rows.append(
                    ResultRow(
                        label: "wall: \(start.label)", size: sizeLabel, summary: Summary(wall[index]), quantity: .time,
                        ratio: isStorm ? Summary.pairedRatios(wall[index], wall[0]) : nil,
                        targets: isStorm && targeted ? [.ratio(.atMost(target), "ratio ≤ \(target)")] : []))
            }
            for (index, start) in starts.enumerated() where start != .fresh {
                // Warm-up storms count too: every storm must make exactly one refresh.
                table.rows.append(
                    ResultRow(
                        label: "POST /auth/refresh per storm: \(start.label)", size: sizeLabel,
                        summary: Summary(refreshes.values[index]), quantity: .count,
                        targets: targeted ? [.everySample(.atMost(1), "exactly 1"), .everySample(.atLeast(1), "")] : [])
                )
            }
            if let index = starts.firstIndex(of: .expiredOnServer) {
                let limit = fixture.admissionLimit
                table.rows.append(
                    ResultRow(
                        label: "401 answers per storm: \(StormFixture.Start.expiredOnServer.label)", size: sizeLabel,
                        summary: Summary(rejected.values[index]), quantity: .count,
                        targets: targeted ? [.everySample(.atMost(Double(limit)), "≤ K = \(limit)")] : []))
            }
            table.rows.append(
                ResultRow(
                    label: "  token file save (lock, write, 2 fsyncs), beside each storm", size: sizeLabel,
                    summary: Summary(Array(saves.values[0].dropFirst(sampler.warmup))), quantity: .time))
        }
        table.notes = [
            "\(sampler.rounds) rounds after \(sampler.warmup) warm-up; each round runs the three starts in turn (order alternating), each a storm of N card(id:) calls started at once on one CardAPIClient built as the TUI builds it (own LiveTransport, 8 connections per host, LoggerPlugin + log pane). Every call must return its card: a failure stops the figure.",
            "The card provider admits K = \(fixture.admissionLimit) requests at once (the transport's connections per host); the others wait and take their token when admitted, and the session holds the gate while a 401's refresh runs.",
            "Server and client share a manual wall clock. \"Client knows\": the clock moves past the token's expiry (1 h access tokens). \"Server only\": the server's admin control expires the token and the client still holds it as fresh. The server's refresh rate limit is off.",
            "The token file save is timed on its own just before each \"server only\" storm, in a second token file in the same folder: the refresh saves the new pair this way (durably; reads sent with the new token meanwhile are answered only after it, changes wait for it), so it is the part of a refresh that depends on the disk and on other processes' I/O.",
            "Refresh and 401 counts are the server's own (RequestStatistics), every storm including warm-up; the targets are exactly one refresh and at most K answers of 401 per storm.",
        ]
        return table
    }
}
