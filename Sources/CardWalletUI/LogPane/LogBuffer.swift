/// The last lines of the network log, in a ring: memory stays bounded however long the
/// program runs.
public struct LogBuffer: Equatable, Sendable {
    /// The most lines kept; older ones are dropped.
    public let capacity: Int
    private var storage: [LogLine] = []
    private var start = 0

    /// The longest `text` and detail line kept, in characters, and the most detail lines:
    /// a server sending megabytes cannot make the pane hold them.
    public static let maxTextLength = 500
    /// The most detail lines kept per line.
    public static let maxDetailLines = 60

    private static let detailLimit = LogDetail.Limit(lines: maxDetailLines, length: maxTextLength)

    /// An empty buffer of `capacity` lines (at least one).
    public init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
    }

    /// How many lines are kept.
    public var count: Int { storage.count }

    /// The line at `index`, oldest first.
    public subscript(index: Int) -> LogLine {
        storage[(start + index) % storage.count]
    }

    /// All lines, oldest first.
    public var lines: [LogLine] { (0..<count).map { self[$0] } }

    /// The position of the line with `id`, if still kept.
    public func index(ofID id: UInt64) -> Int? {
        guard count > 0, id >= self[0].id, id <= self[count - 1].id else { return nil }
        // Ids increase, so the line sits at a known offset unless ids skipped; check nearby.
        let guess = Int(min(UInt64(count - 1), id - self[0].id))
        if self[guess].id == id { return guess }
        return (0..<count).first { self[$0].id == id }
    }

    /// Adds a line, dropping the oldest when full; over-long text is cut.
    public mutating func append(_ line: LogLine) {
        var line = line
        if line.text.count > Self.maxTextLength { line.text = String(line.text.prefix(Self.maxTextLength)) + "…" }
        // A detail built on demand is cut when built, so appending does not build it.
        line.lazyDetail = line.lazyDetail.limited(to: Self.detailLimit)
        if storage.count < capacity {
            storage.append(line)
        } else {
            storage[start] = line
            start = (start + 1) % capacity
        }
    }
}

/// The log pane: its lines, whether and how big it shows, the failures filter and selection.
public struct LogPaneState: Equatable, Sendable {
    /// The pane's size, as a share of the screen; `L` cycles.
    public enum Height: Int, CaseIterable, Equatable, Sendable {
        case small, medium, large

        /// The next size in the cycle.
        public var next: Height { Height(rawValue: (rawValue + 1) % Height.allCases.count) ?? .small }

        /// Rows for a screen with `available` rows of content.
        func rows(of available: Int) -> Int {
            let share: Int =
                switch self {
                case .small: available / 4
                case .medium: available * 2 / 5
                case .large: available * 3 / 5
                }
            return max(4, share)
        }
    }

    /// The kept lines.
    public var buffer: LogBuffer
    /// Whether the pane shows (`l`).
    public var isVisible = false
    /// How tall it is (`L`).
    public var height: Height = .small
    /// Show only failed exchanges.
    public var failuresOnly = false
    /// The selected line when the pane has the keyboard; `nil` follows the newest line.
    public var selectedID: UInt64?

    /// An empty, hidden pane keeping `capacity` lines.
    public init(capacity: Int = 1_000) {
        buffer = LogBuffer(capacity: capacity)
    }

    /// The positions in ``buffer`` of the lines shown (all, or failures only), oldest first.
    public var shownIndices: [Int] {
        failuresOnly ? (0..<buffer.count).filter { buffer[$0].isFailure } : Array(0..<buffer.count)
    }

    /// Moves the selection through the shown lines; selecting the newest line follows again.
    mutating func move(_ command: ScrollCommand, viewport: Int) {
        let shown = shownIndices
        guard !shown.isEmpty else {
            selectedID = nil
            return
        }
        let current = selectedID.flatMap { id in shown.firstIndex { buffer[$0].id == id } } ?? (shown.count - 1)
        let page = max(1, viewport)
        var next = current
        switch command {
        case .up: next -= 1
        case .down: next += 1
        case .top: next = 0
        case .bottom: next = shown.count - 1
        case .pageUp: next -= page
        case .pageDown: next += page
        case .halfPageUp: next -= max(1, page / 2)
        case .halfPageDown: next += max(1, page / 2)
        }
        next = min(max(0, next), shown.count - 1)
        selectedID = next == shown.count - 1 ? nil : buffer[shown[next]].id
    }

    /// The line the selection is on (the newest shown when following).
    public var selectedLine: LogLine? {
        if let selectedID, let index = buffer.index(ofID: selectedID) { return buffer[index] }
        return shownIndices.last.map { buffer[$0] }
    }
}
