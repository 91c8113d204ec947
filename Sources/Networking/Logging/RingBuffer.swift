/// The last `capacity` elements appended, oldest first.
struct RingBuffer<Element> {
    private var storage: [Element] = []
    private var head = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage.reserveCapacity(self.capacity)
    }

    /// Appends `element` and returns the one it pushed out, if any, so the caller can let it
    /// go outside a lock.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        guard capacity > 0 else { return element }
        if storage.count < capacity {
            storage.append(element)
            return nil
        }
        let evicted = storage[head]
        storage[head] = element
        head = (head + 1) % capacity
        return evicted
    }

    var elements: [Element] { Array(storage[head...] + storage[..<head]) }

    var count: Int { storage.count }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
