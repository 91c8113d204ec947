/// The admission state of one host: how many requests run, how many holds keep the gate shut,
/// and who waits, in arrival order.
///
/// A pure value (no locks, no tasks): ``Admission`` keeps one per host behind its mutex and
/// resumes the waiters this type hands back. `Waiter` is whatever wakes a waiting request (a
/// continuation there, a plain number in tests).
struct AdmissionGate<Waiter> {
    /// The most requests running at once.
    let limit: Int
    /// Requests admitted and not yet done.
    private(set) var running = 0
    /// Holds in force; the gate admits nobody new while there is one.
    private(set) var holds = 0
    /// Waiter ids in arrival order; ids of waiters that left (cancelled) are skipped.
    private var order: [UInt64] = []
    private var head = 0
    private var waiters: [UInt64: Waiter] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many requests wait.
    var waiting: Int { waiters.count }

    /// Whether nothing runs, waits or holds: the gate can be forgotten.
    var isIdle: Bool { running == 0 && holds == 0 && waiters.isEmpty }

    /// Takes a slot if one is free, nobody waits (no overtaking) and no hold is in force.
    mutating func tryEnter() -> Bool {
        guard running < limit, holds == 0, waiters.isEmpty else { return false }
        running += 1
        return true
    }

    /// Queues a waiter at the back.
    mutating func enqueue(_ id: UInt64, _ waiter: Waiter) {
        order.append(id)
        waiters[id] = waiter
    }

    /// Takes a waiter out of the queue (it was cancelled); `nil` if it was already admitted.
    mutating func remove(_ id: UInt64) -> Waiter? {
        waiters.removeValue(forKey: id)
    }

    /// Gives a slot back; returns the waiters it admits (the first in line, if the gate is open).
    mutating func leave() -> [Waiter] {
        running = max(0, running - 1)
        return admitWaiting()
    }

    /// Shuts the gate: requests already admitted carry on, nobody new is admitted.
    mutating func hold() {
        holds += 1
    }

    /// Ends one hold; returns the waiters admitted if that was the last (as many as slots are free).
    mutating func endHold() -> [Waiter] {
        holds -= 1
        return admitWaiting()
    }

    /// Admits waiters in order while slots are free and no hold is in force.
    private mutating func admitWaiting() -> [Waiter] {
        var admitted: [Waiter] = []
        while holds == 0, running < limit, let waiter = popFirst() {
            running += 1
            admitted.append(waiter)
        }
        return admitted
    }

    private mutating func popFirst() -> Waiter? {
        while head < order.count {
            let id = order[head]
            head += 1
            if let waiter = waiters.removeValue(forKey: id) {
                compact()
                return waiter
            }
        }
        compact()
        return nil
    }

    /// Drops the ids already served, so the queue's storage does not grow with every waiter ever seen.
    private mutating func compact() {
        if head == order.count {
            order.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
