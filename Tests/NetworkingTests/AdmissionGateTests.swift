import Foundation
import Testing

@testable import Networking

/// The per-host state machine on its own, and the key that picks a host's gate.
@Suite struct AdmissionGateTests {
    // `#expect` cannot call a mutating method itself: each step's result is taken first.

    @Test func admitsUpToTheLimitThenQueuesInArrivalOrder() {
        var gate = AdmissionGate<String>(limit: 2)
        let entered = [gate.tryEnter(), gate.tryEnter(), gate.tryEnter()]
        #expect(entered == [true, true, false])
        gate.enqueue(1, "a")
        gate.enqueue(2, "b")
        gate.enqueue(3, "c")
        #expect(gate.waiting == 3)
        let first = gate.leave()
        #expect(first == ["a"] && gate.running == 2)
        let rest = [gate.leave(), gate.leave(), gate.leave(), gate.leave()]
        #expect(rest == [["b"], ["c"], [], []])
        #expect(gate.isIdle)
    }

    @Test func nobodyOvertakesAWaiterEvenWhenASlotIsFree() {
        var gate = AdmissionGate<String>(limit: 1)
        let entered = gate.tryEnter()
        gate.enqueue(1, "first")
        gate.hold()
        let whileHeld = gate.leave()  // held: the slot stays free…
        let newcomer = gate.tryEnter()  // …and a newcomer may not take it ahead of "first"
        #expect(entered && whileHeld.isEmpty && gate.running == 0 && !newcomer)
        let afterHold = gate.endHold()
        #expect(afterHold == ["first"] && gate.running == 1)
    }

    @Test func aRemovedWaiterIsSkipped() {
        var gate = AdmissionGate<String>(limit: 1)
        _ = gate.tryEnter()
        gate.enqueue(1, "a")
        gate.enqueue(2, "b")
        gate.enqueue(3, "c")
        let removed = [gate.remove(2), gate.remove(2)]
        #expect(removed == ["b", nil])
        let served = [gate.leave(), gate.leave(), gate.leave()]
        #expect(served == [["a"], ["c"], []])
        #expect(gate.isIdle)
    }

    @Test func holdsNestAndTheLastOneAdmitsAsManyAsSlotsAreFree() {
        var gate = AdmissionGate<Int>(limit: 3)
        gate.hold()
        gate.hold()
        let entered = gate.tryEnter()
        for id in 1...5 { gate.enqueue(UInt64(id), id) }
        let afterFirst = gate.endHold()
        #expect(!entered && afterFirst.isEmpty && gate.holds == 1)
        let afterLast = gate.endHold()
        #expect(afterLast == [1, 2, 3])
        #expect(gate.running == 3 && gate.waiting == 2)
    }

    @Test func aLongQueueKeepsItsOrderThroughCompaction() {
        var gate = AdmissionGate<Int>(limit: 1)
        _ = gate.tryEnter()
        for id in 0..<500 { gate.enqueue(UInt64(id), id) }
        for id in stride(from: 1, to: 500, by: 3) { _ = gate.remove(UInt64(id)) }
        var served: [Int] = []
        while let next = gate.leave().first { served.append(next) }
        #expect(served == (0..<500).filter { $0 % 3 != 1 })
        #expect(gate.isIdle)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/v1/card/abc?x=1", "http://127.0.0.1:8080"),
        ("https://Cards.Example.COM/v1", "https://cards.example.com"),
        ("http://user:secret@cards.example:81/a", "http://cards.example:81"),
        ("http://cards.example?q=1", "http://cards.example"),
        ("http://cards.example#top", "http://cards.example"),
        ("http://[::1]:9000/x", "http://[::1]:9000"),
    ])
    func theHostKeyIsSchemeHostAndPort(url: String, key: String) throws {
        #expect(Admission.hostKey(for: try #require(URL(string: url))) == key)
    }
}
