import Networking

extension CardAPIClient {
    /// Whether the server can be reached at the configured address and answers there as the
    /// card API does — the two things a login finds out first — for a caller that has no
    /// session to send. A scripting command runs it when no session is stored, so a server
    /// that is down, or an address without `/v1`, is reported as such (as `login` would report
    /// it) instead of as "Not logged in".
    ///
    /// Sends one `GET /cards?limit=1` without a token, through the client's plugins (so a log
    /// shows it) but not the session: any card API refuses it with 401 E03 and changes nothing.
    ///
    /// - Returns: the network failure (cannot connect, timed out, connection broken) or the
    ///   unknown endpoint (404 E01: the address is not the API's base URL); `nil` when the
    ///   server answered anything else.
    public func serverProblem() async -> CardAPIError? {
        guard let problem = await probe() else { return nil }
        return problem.isNetworkFailure || problem.isUnknownEndpoint ? problem : nil
    }
}

/// What one probe of an address found: the card API, another kind of server, or no answer.
public enum CardAPIProbe: Sendable {
    /// One of the API's JSON envelopes came back.
    case cardAPI
    /// The server answered, but not as the card API does.
    case otherServer
    /// The server could not be reached, or gave no complete answer in time.
    case unreachable(CardAPIError)
}

extension CardAPIClient {
    /// Whether the configured address answers as the card API: the same probe as
    /// ``serverProblem()`` (`GET /cards?limit=1` without a token), judged by whether the answer is
    /// one of the API's JSON envelopes (any card API refuses it with 401 E03, or 404 E01 when
    /// the address lacks its `/v1`). One request: an unreachable server's failure comes with it,
    /// so a provider's probe never waits for a second deadline.
    public func probeKind() async -> CardAPIProbe {
        guard let problem = await probe() else { return .cardAPI }
        if problem.isNetworkFailure { return .unreachable(problem) }
        // Its own envelope, even for a path it does not know (an address without `/v1`).
        if case .server(let answer) = problem { return answer.code != nil ? .cardAPI : .otherServer }
        return .otherServer
    }
}

extension CardAPIClient {
    /// Sends one `GET /cards?limit=1` without a token, through the client's plugins but not the
    /// session, without retries: the answer's failure, or `nil` when the server answered 2xx.
    fileprivate func probe() async -> CardAPIError? {
        let probe = Provider<CardService>(
            transport: cards.transport, plugins: cards.plugins.filter { !($0 is SessionInterceptor) },
            stubBehavior: cards.stubBehavior, stubResponse: cards.stubResponse, clock: cards.clock, maximumRetries: 0)
        let target = CardService(
            server: configuration.server, endpoint: .list(offset: nil, limit: 1, query: nil),
            timeout: configuration.requestTimeout)
        do {
            _ = try await probe.request(target)
            return nil
        } catch {
            return judge.error(from: error)
        }
    }
}
