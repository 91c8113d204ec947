/// #39: the refresh storm of §2 on a CardDAV server behind OAuth 2.0 — N concurrent `card(id:)`
/// calls on one CardDAV backend logged in with OAuth (Authlib's authorization server, a Radicale
/// that asks it about every token), once with a fresh access token and once after the
/// authorization server expired it behind the client's back (every request answered 401 with
/// `error="invalid_token"` until one refresh), in interleaved rounds. The authorization server
/// must see exactly one refresh grant per storm, and every call must succeed.
struct OAuthStormFigure: Figure {
    /// Wall time ÷ fresh after a server-side expiry: §2's server-only target.
    static let target = RefreshStormFigure.serverOnlyTarget

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let sizes = context.pick(full: [50, 200], quick: [10])
        let sampler = Sampler(warmup: 1, rounds: context.pick(full: 10, quick: 2))
        context.progress("oauth-storm: starting Authlib's server and Radicale, logging in with OAuth")
        let fixture = try await OAuthStormFixture.start(cards: 20)
        do {
            let table = try await measure(sizes: sizes, sampler: sampler, fixture: fixture, context: context)
            await fixture.stop()
            return [table]
        } catch {
            await fixture.stop()
            throw error
        }
    }

    private func measure(
        sizes: [Int], sampler: Sampler, fixture: OAuthStormFixture, context: BenchContext
    ) async throws -> ResultTable {
        var table = ResultTable(
            title: "#39 OAuth refresh storm — N concurrent card(id:) calls on one CardDAV backend behind OAuth 2.0",
            ratioHeader: "÷ fresh token")
        let labels = ["fresh token", "expired on the server (401 invalid_token, refresh)"]
        for size in sizes {
            context.progress("oauth-storm: N = \(Formatting.grouped(size))")
            let refreshes = SampleLog(variants: labels.count)
            let rejected = SampleLog(variants: labels.count)
            let wall = try await sampler.roundRobin(
                measuring: labels.indices.map { index in
                    {
                        if index == 1 { try await fixture.expireOnServer() }
                        let (seconds, refreshCount, rejectedCount) = try await fixture.storm(size)
                        if refreshCount != index {
                            throw BenchError(
                                "a storm of \(size) (\(labels[index])) made \(refreshCount) refresh grants; expected \(index)"
                            )
                        }
                        refreshes.append(Double(refreshCount), to: index)
                        rejected.append(Double(rejectedCount), to: index)
                        return seconds
                    }
                })
            let sizeLabel = "N = \(Formatting.grouped(size))"
            let targeted = !context.quick
            for index in labels.indices {
                table.rows.append(
                    ResultRow(
                        label: "wall: \(labels[index])", size: sizeLabel, summary: Summary(wall[index]),
                        quantity: .time, ratio: index == 1 ? Summary.pairedRatios(wall[1], wall[0]) : nil,
                        targets: index == 1 && targeted ? [.ratio(.atMost(Self.target), "ratio ≤ \(Self.target)")] : []
                    ))
            }
            table.rows.append(
                ResultRow(
                    label: "refresh grants per storm: \(labels[1])", size: sizeLabel,
                    summary: Summary(refreshes.values[1]), quantity: .count,
                    targets: targeted ? [.everySample(.atMost(1), "exactly 1"), .everySample(.atLeast(1), "")] : []))
            let limit = fixture.admissionLimit
            table.rows.append(
                ResultRow(
                    label: "401 answers per storm: \(labels[1])", size: sizeLabel,
                    summary: Summary(rejected.values[1]), quantity: .count,
                    targets: targeted ? [.everySample(.atMost(Double(limit)), "≤ K = \(limit)")] : []))
        }
        table.notes = [
            "\(sampler.rounds) rounds after \(sampler.warmup) warm-up; each round runs both starts in turn (order alternating), each a storm of N card(id:) calls started at once on one CardDAV backend built as the program builds it (the providers' list, a token file, the keyring in memory, own LiveTransport with \(fixture.admissionLimit) connections per host, LoggerPlugin), logged in through the real loopback flow (the bench consents as the browser would). Every call must return its card: a failure stops the figure.",
            "The peers: scripts/oauth-server.py (Authlib, pinned in scripts/requirements-oauth.txt; 1-hour access tokens) and scripts/carddav-server.py radicale --bearer, whose auth plugin asks the authorization server's RFC 7662 introspection endpoint about every request's token. \"Expired on the server\": POST /test/expire-access before the storm; the client still holds the token as fresh, so the first admitted requests are answered 401 with error=\"invalid_token\".",
            "The refresh runs in the shared session (SessionCore's TokenSession with OAuthTokenExchange, the card API's machinery): one refresh in flight, the other requests wait for it. Refresh counts are the authorization server's own (/test/stats), every storm including warm-up; 401 counts are the client transport's.",
            "Each request costs Radicale an introspection round trip to the authorization server, so a fresh storm here is slower per request than §2's against the mock server; the ratio is what the refresh adds.",
        ]
        return table
    }
}
