extension Provider {
    /// Builds the request, then prepares it and runs the attempts — once for every identical
    /// `GET` in flight when in-flight tracking is on.
    func perform(_ target: Target) async -> Result<Response, NetworkError> {
        let request: Request
        do {
            request = try RequestBuilder.request(for: target)
        } catch {
            return .failure(error)
        }
        guard let inflight, request.method == .get, request.downloadDestination == nil, request.body.isEmpty else {
            return await prepareAndRun(request, target: target)
        }
        return await inflight.run(key: InflightTable.key(for: request)) {
            await self.prepareAndRun(request, target: target)
        }
    }

    private func prepareAndRun(_ built: Request, target: Target) async -> Result<Response, NetworkError> {
        // Box the target once: every hook takes `any TargetType`, and a target too large for an
        // existential's inline buffer would otherwise be copied to the heap for each call.
        let erased: any TargetType = target
        var request = built
        for plugin in plugins { request = plugin.prepare(request, target: erased) }
        return await attempts(of: request, target: target, erased: erased)
    }

    /// Waits for admission, then adapts, sends, validates and maybe retries, then lets plugins
    /// process the result.
    ///
    /// The request holds its admission slot from before the first `adapt` until its last attempt
    /// is done — through the retry decision, so a request that got a 401 keeps its slot while
    /// its interceptor refreshes the token — except while it waits out a retry delay. A success
    /// gives the slot back as soon as the transport returns it, before the plugins see it.
    private func attempts(
        of prepared: Request, target: Target, erased: any TargetType
    ) async -> Result<Response, NetworkError> {
        let transport = transport(for: target)
        let host = Admission.hostKey(for: prepared.url)
        var slot: AdmissionSlot?
        var attempt = 1
        var result: Result<Response, NetworkError>
        var sent = prepared
        attempts: while true {
            sent = prepared
            sent.attempt = attempt
            do {
                if slot == nil {
                    if let free = admission.tryEnter(host) {
                        slot = free
                    } else {
                        slot = try await admission.enter(host)
                    }
                }
                try Task.checkCancellation()
                for interceptor in interceptors { sent = try await interceptor.adapt(sent, for: erased) }
                sent.attempt = attempt
            } catch {
                result = .failure(Self.interceptorFailure(error))
                for plugin in plugins { plugin.didReceive(result, for: sent, target: erased) }
                break
            }
            for plugin in plugins { plugin.willSend(sent, target: erased) }
            result = await send(sent, through: transport, validation: target.validation)
            if case .success = result, let held = slot {
                // A success is never retried: the next request in line may go now.
                admission.leave(held)
                slot = nil
            }
            for plugin in plugins { plugin.didReceive(result, for: sent, target: erased) }

            guard case .failure(let error) = result, !error.isCancelled, attempt <= maximumRetries else { break }
            let decision: RetryDecision
            do {
                decision = try await retryDecision(for: sent, target: erased, error: error, attempt: attempt)
            } catch {
                result = .failure(Self.interceptorFailure(error))
                break
            }
            let delay: Duration
            switch decision {
            case .doNotRetry: break attempts
            case .retry: delay = .zero
            case .retryAfter(let wait): delay = max(.zero, wait)
            }
            for plugin in plugins { plugin.willRetry(sent, dueTo: error, after: delay, target: erased) }
            if delay > .zero {
                // Nobody should wait behind a request that is itself waiting: it queues again after.
                if let held = slot { admission.leave(held) }
                slot = nil
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    result = .failure(.cancelled)
                    break
                }
            }
            attempt += 1
        }
        if let slot { admission.leave(slot) }
        return process(result, for: sent, target: erased)
    }

    private func retryDecision(
        for request: Request,
        target: any TargetType,
        error: NetworkError,
        attempt: Int
    ) async throws -> RetryDecision {
        for interceptor in interceptors {
            let decision = try await interceptor.retry(request, for: target, dueTo: error, attempt: attempt)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }

    private func process(
        _ result: Result<Response, NetworkError>,
        for request: Request,
        target: any TargetType
    ) -> Result<Response, NetworkError> {
        plugins.reduce(result) { result, plugin in plugin.process(result, for: request, target: target) }
    }

    private func send(
        _ request: Request,
        through transport: any Transport,
        validation: Validation
    ) async -> Result<Response, NetworkError> {
        do {
            let response = try await transport.send(request)
            return validation.accepts(response.statusCode)
                ? .success(response) : .failure(.unacceptableStatus(response))
        } catch {
            if Task.isCancelled { return .failure(.cancelled) }
            return .failure(.wrapping(error, request: request))
        }
    }

    private static func interceptorFailure(_ error: any Error) -> NetworkError {
        if error is CancellationError { return .cancelled }
        if let error = error as? NetworkError, error.isCancelled { return .cancelled }
        return .interceptor(error)
    }

    /// The transport for `target`: a stub if the target is stubbed, else the provider's.
    private func transport(for target: Target) -> any Transport {
        switch stubBehavior(target) {
        case .never: transport
        case .immediate: TargetStubTransport(target: target, delay: nil, clock: clock, response: stubResponse)
        case .delayed(let delay):
            TargetStubTransport(target: target, delay: delay, clock: clock, response: stubResponse)
        }
    }
}
