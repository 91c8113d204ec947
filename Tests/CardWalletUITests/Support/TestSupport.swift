import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// The server URL the tests pretend to use.
let testServer = "http://127.0.0.1:8080/v1"
let testEmail = "demo@cardwallet.dev"

/// Waits until `condition` holds, turning `step` meanwhile; fails after `timeout`.
@MainActor
func waitUntil(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    step: () async -> Void = { await Task.yield() }, _ condition: () -> Bool
) async {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline {
            Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        await step()
    }
}

extension AppState {
    /// Reduces `action`; for tests that look at the state rather than the effects.
    @discardableResult
    mutating func send(_ action: AppAction) -> [Effect] {
        reduce(action)
    }

    /// Sends each key and returns all effects.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        keys.flatMap { reduce(.key($0)) }
    }

    /// Types `text` one character at a time.
    @discardableResult
    mutating func type(_ text: String) -> [Effect] {
        text.flatMap { reduce(.key(.char($0))) }
    }

    /// The last request effect's id and request.
    static func lastRequest(_ effects: [Effect]) -> (CallID, AppCall)? {
        for effect in effects.reversed() {
            if case .perform(let id, let request) = effect { return (id, request) }
        }
        return nil
    }

    /// Answers every call of `effects` with `response`. A successful login is preceded by the
    /// session's own news, as the live session reports it (through the same channel) before
    /// the login call returns.
    @discardableResult
    mutating func answer(_ effects: [Effect], with response: (AppCall) -> CallOutcome) -> [Effect] {
        var more: [Effect] = []
        for effect in effects {
            if case .perform(let id, let call) = effect {
                let outcome = response(call)
                if case .success(.loggedIn(let email, let server)) = outcome {
                    more += reduce(.session(.loggedIn(email: email, server: server)))
                }
                more += reduce(.completed(id, outcome))
            }
        }
        return more
    }

    /// A state logged in with the first `count` sample cards loaded (all of `total`).
    static func loggedIn(cards count: Int, total: Int? = nil, width: Int = 80, height: Int = 24, pageSize: Int = 100)
        -> AppState
    {
        var state = AppState(
            server: testServer, email: testEmail, password: "secret", width: width, height: height, pageSize: pageSize)
        let total = total ?? count
        var effects = state.press(.enter)
        effects = state.answer(effects) { _ in .success(.loggedIn(email: testEmail, server: testServer)) }
        // Load pages until `count` cards are loaded.
        while let (id, request) = lastRequest(effects), case .loadCards(let offset, let limit, _) = request,
            offset < count
        {
            let end = min(count, offset + limit)
            let page = CardPage(
                cards: SampleCards.summaries(count: end).suffix(from: offset).map { $0 }, total: total, offset: offset,
                limit: limit)
            effects = state.reduce(.completed(id, .success(.cards(page))))
        }
        return state
    }
}

/// A terminal that plays scripted events and keeps every frame.
@MainActor
final class FakeBackend: TerminalBackend {
    var size: (width: Int, height: Int)
    var events: [TerminalEvent] = []
    private(set) var frames: [Grid] = []
    private(set) var restored = false

    init(width: Int = 80, height: Int = 24) {
        size = (width, height)
    }

    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    func present(_ grid: Grid) { frames.append(grid) }

    func restore() { restored = true }

    private(set) var fullRepaints = 0

    func requestFullRepaint() { fullRepaints += 1 }

    var lastText: String { frames.last?.text ?? "" }

    func type(_ text: String) { events += text.map { .key(.char($0)) } }
}

/// The paths where two values differ, each with both sides shortened: readable failure
/// messages for states holding thousands of cards.
func differences(_ left: Any, _ right: Any, path: String = "", depth: Int = 0) -> [String] {
    let leftText = String(reflecting: left)
    let rightText = String(reflecting: right)
    guard leftText != rightText else { return [] }
    let leftChildren = Array(Mirror(reflecting: left).children)
    let rightChildren = Array(Mirror(reflecting: right).children)
    if depth < 4, !leftChildren.isEmpty, leftChildren.count == rightChildren.count,
        leftChildren.allSatisfy({ $0.label != nil })
    {
        return zip(leftChildren, rightChildren).flatMap { pair in
            differences(pair.0.value, pair.1.value, path: path + "." + (pair.0.label ?? "?"), depth: depth + 1)
        }
    }
    func short(_ text: String) -> String { text.count > 160 ? String(text.prefix(160)) + "…" : text }
    return ["\(path.isEmpty ? "value" : path): got \(short(leftText)), expected \(short(rightText))"]
}
