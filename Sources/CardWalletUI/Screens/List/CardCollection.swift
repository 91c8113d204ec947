public import CardModels

/// The loaded part of the wallet, sorted and filtered, stored for 100,000 cards and more.
///
/// Cards live in an arena in the order they arrived and never move; everything else is a
/// list of 32-bit arena indices: the wallet order, the current sort, and one list per filter
/// level. Filtering narrows the previous level when the query grows (typing) and pops back to
/// it when the query shrinks (Backspace), so a keystroke never re-sorts and rarely rescans.
public struct CardCollection: Equatable, Sendable {
    /// How the list is ordered; `s` cycles through them.
    public enum SortOrder: String, CaseIterable, Equatable, Sendable {
        /// The user's own order, as the server keeps it (the only order `J`/`K` can change).
        case wallet
        case name
        case company
        /// Most recently updated first.
        case updated

        /// For the header and messages.
        public var label: String {
            switch self {
            case .wallet: "wallet order"
            case .name: "name"
            case .company: "company"
            case .updated: "last update"
            }
        }

        /// The next order in the cycle.
        public var next: SortOrder {
            let all = Self.allCases
            let index = all.firstIndex(of: self) ?? 0
            return all[(index + 1) % all.count]
        }
    }

    /// A filter result: the query and the rows it keeps.
    struct FilterLevel: Equatable, Sendable {
        var query: String
        var matches: [Int32]
    }

    /// How many cards the server has in all (loaded or not), as of the last page.
    public private(set) var total = 0
    /// Whether a page has arrived since the collection was made or emptied: until then the
    /// server's total is unknown (a first page that failed leaves it unknown).
    public private(set) var isTotalKnown = false
    private var arena: [CardSummary] = []
    /// The folded keys of the first arena cards, one record each: made when a sort or a filter
    /// first needs them (``catchUpKeys()``), not as pages arrive, so a first frame of 1,000
    /// cached cards does not fold 4,000 strings it never compares.
    private var folded = FoldedKeys()
    private var keys: SearchKeys { folded.keys }
    private var indexByID: [String: Int32] = [:]
    /// The loaded cards in wallet order (arena indices).
    public private(set) var wallet: [Int32] = []
    /// The current order (`s`).
    public private(set) var sortOrder: SortOrder = .wallet
    private var sorted: [Int32]?
    /// The filter as typed; empty when the list is not filtered.
    public private(set) var query = ""
    private var levels: [FilterLevel] = []
    /// Filter levels kept for Backspace; older ones are dropped (any level is a valid base).
    static let maxLevels = 32

    /// An empty collection.
    public init() {}

    /// The rows shown, as arena indices: filtered, in the current order.
    public var rows: [Int32] { levels.last?.matches ?? sorted ?? wallet }
    /// How many cards are loaded.
    public var loadedCount: Int { wallet.count }
    /// Whether every card of the wallet is loaded (never before the first page arrived).
    public var isComplete: Bool { isTotalKnown && wallet.count >= total }
    /// Whether a filter is narrowing the rows.
    public var isFiltered: Bool { !levels.isEmpty }

    /// The card shown at `row`, if there is one.
    public func summary(atRow row: Int) -> CardSummary? {
        let rows = rows
        guard row >= 0, row < rows.count else { return nil }
        return arena[Int(rows[row])]
    }

    /// The card at an arena index.
    public func summary(atIndex index: Int32) -> CardSummary { arena[Int(index)] }

    /// The arena index of the card with `id`, if it is loaded.
    public func index(ofID id: String) -> Int32? { indexByID[id] }

    /// The row showing the card at arena index `index`, if it is shown.
    public func row(ofIndex index: Int32) -> Int? { rows.firstIndex(of: index) }

    /// The ids of the loaded cards in wallet order (what `PUT /cards` needs).
    public var walletIDs: [String] { wallet.map { arena[Int($0)].id } }

    // MARK: Changing the cards

    /// Adds one page from the server; cards already loaded (say, one just created) are skipped.
    public mutating func append(_ page: CardPage) {
        total = max(page.total, 0)
        isTotalKnown = true
        var added: [Int32] = []
        added.reserveCapacity(page.cards.count)
        for summary in page.cards where indexByID[summary.id] == nil {
            added.append(add(summary))
        }
        wallet += added
        total = max(total, wallet.count)
        if var sorted {
            catchUpKeys()
            let order = sortOrder
            var fresh = added
            sortIndices(&fresh, by: order)
            sorted = merge(sorted, fresh, by: order)
            self.sorted = sorted
        }
        guard let last = levels.last else { return }
        catchUpKeys()
        if sortOrder == .wallet {
            let fresh = keys.filter(added, needles: SearchKeys.needles(of: last.query))
            levels = [FilterLevel(query: last.query, matches: last.matches + fresh)]
        } else {
            refilter()
        }
    }

    /// Adds a card the user just created: at the end of the wallet when the whole wallet is
    /// loaded; otherwise it only counts, and arrives with its page (or with the next reload,
    /// when no page has arrived yet).
    public mutating func insert(_ summary: CardSummary) {
        guard indexByID[summary.id] == nil else { return update(summary) }
        guard isComplete else {
            if isTotalKnown { total += 1 }
            return
        }
        append(CardPage(cards: [summary], total: total + 1, offset: wallet.count, limit: 1))
    }

    /// Replaces a loaded card with its new version (after an edit); re-sorts and re-filters it.
    public mutating func update(_ summary: CardSummary) {
        guard let index = indexByID[summary.id] else { return }
        arena[Int(index)] = summary
        // Keys not made yet are made from the arena, which has the new version already.
        if Int(index) < keys.records.count { folded.keys.replace(Int(index), with: summary) }
        if var sorted, let position = sorted.firstIndex(of: index) {
            catchUpKeys()
            sorted.remove(at: position)
            let order = sortOrder
            let insertAt = insertionPoint(of: index, in: sorted, by: order)
            sorted.insert(index, at: insertAt)
            self.sorted = sorted
        }
        if isFiltered { refilter() }
    }

    /// Forgets the card with `id` (deleted, or gone from the server).
    public mutating func remove(id: String) {
        guard let index = indexByID.removeValue(forKey: id) else { return }
        wallet.removeAll { $0 == index }
        sorted?.removeAll { $0 == index }
        for level in levels.indices { levels[level].matches.removeAll { $0 == index } }
        total = max(0, total - 1)
    }

    /// Moves the card at wallet position `position` by `offset` places; `false` when it cannot.
    public mutating func moveInWallet(from position: Int, by offset: Int) -> Bool {
        let target = position + offset
        guard position >= 0, position < wallet.count, target >= 0, target < wallet.count else { return false }
        wallet.swapAt(position, target)
        return true
    }

    /// Forgets every card, keeping the sort and the filter for what loads next.
    public mutating func removeAll() {
        total = 0
        isTotalKnown = false
        arena = []
        folded = FoldedKeys()
        indexByID = [:]
        wallet = []
        sorted = sortOrder == .wallet ? nil : []
        levels = query.isEmpty ? [] : [FilterLevel(query: query, matches: [])]
    }

    private mutating func add(_ summary: CardSummary) -> Int32 {
        let index = Int32(truncatingIfNeeded: arena.count)
        arena.append(summary)
        indexByID[summary.id] = index
        return index
    }

    // MARK: Sorting and filtering

    /// Orders the rows by `order` (sorting once; filters are re-applied to the new order).
    public mutating func setSortOrder(_ order: SortOrder) {
        guard order != sortOrder else { return }
        sortOrder = order
        if order == .wallet {
            sorted = nil
        } else {
            catchUpKeys()
            var indices = wallet
            sortIndices(&indices, by: order)
            sorted = indices
        }
        if isFiltered { refilter() }
    }

    /// Filters the rows to cards whose name, company, title or email contain every word of
    /// `query` (case- and width-insensitive). Growing the query narrows the last result.
    public mutating func setQuery(_ query: String) {
        self.query = query
        let needles = SearchKeys.needles(of: query)
        guard !needles.isEmpty else {
            levels = []
            return
        }
        while let last = levels.last, !query.hasPrefix(last.query) { levels.removeLast() }
        if levels.last?.query == query { return }
        let base = levels.last?.matches ?? sorted ?? wallet
        catchUpKeys()
        levels.append(FilterLevel(query: query, matches: keys.filter(base, needles: needles)))
        if levels.count > Self.maxLevels { levels.removeFirst() }
    }

    /// Adds to the rows filtered for `query` (the current one) the loaded cards among `ids`:
    /// the matches of a search over every field (the local cache's), kept in the rows' order.
    public mutating func addMatches(ids: Set<String>, for query: String) {
        guard query == self.query, var last = levels.last, last.query == query else { return }
        let extra = Set(ids.compactMap { indexByID[$0] })
        let shown = Set(last.matches)
        guard !extra.subtracting(shown).isEmpty else { return }
        last.matches = (sorted ?? wallet).filter { shown.contains($0) || extra.contains($0) }
        levels[levels.count - 1] = last
    }

    private mutating func refilter() {
        let needles = SearchKeys.needles(of: query)
        guard !needles.isEmpty else {
            levels = []
            return
        }
        catchUpKeys()
        levels = [FilterLevel(query: query, matches: keys.filter(sorted ?? wallet, needles: needles))]
    }

    /// Makes the keys of the cards that arrived since a sort or a filter last needed them.
    private mutating func catchUpKeys() {
        while keys.records.count < arena.count { folded.keys.append(arena[keys.records.count]) }
    }

    private func isOrdered(
        _ a: Int32, _ b: Int32, by order: SortOrder,
        _ haystack: UnsafeBufferPointer<UInt8>,
        _ records: UnsafeBufferPointer<SearchKeys.Record>
    ) -> Bool {
        let comparison: Int
        switch order {
        case .wallet: return a < b
        case .name: comparison = keys.compare(a, b, by: .name, in: haystack, records: records)
        case .company:
            let byCompany = keys.compare(a, b, by: .company, in: haystack, records: records)
            comparison = byCompany != 0 ? byCompany : keys.compare(a, b, by: .name, in: haystack, records: records)
        case .updated:
            let left = arena[Int(a)].updatedAt
            let right = arena[Int(b)].updatedAt
            comparison = left == right ? 0 : (left > right ? -1 : 1)
        }
        return comparison != 0 ? comparison < 0 : a < b
    }

    private func sortIndices(_ indices: inout [Int32], by order: SortOrder) {
        keys.bytes.withUnsafeBufferPointer { haystack in
            keys.records.withUnsafeBufferPointer { records in
                indices.sort { isOrdered($0, $1, by: order, haystack, records) }
            }
        }
    }

    private func merge(_ left: [Int32], _ right: [Int32], by order: SortOrder) -> [Int32] {
        guard !right.isEmpty else { return left }
        var result: [Int32] = []
        result.reserveCapacity(left.count + right.count)
        keys.bytes.withUnsafeBufferPointer { haystack in
            keys.records.withUnsafeBufferPointer { records in
                var i = 0
                var j = 0
                while i < left.count, j < right.count {
                    if isOrdered(right[j], left[i], by: order, haystack, records) {
                        result.append(right[j])
                        j += 1
                    } else {
                        result.append(left[i])
                        i += 1
                    }
                }
                result += left[i...]
                result += right[j...]
            }
        }
        return result
    }

    private func insertionPoint(of index: Int32, in sorted: [Int32], by order: SortOrder) -> Int {
        keys.bytes.withUnsafeBufferPointer { haystack in
            keys.records.withUnsafeBufferPointer { records in
                var low = 0
                var high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if isOrdered(sorted[middle], index, by: order, haystack, records) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                return low
            }
        }
    }
}

/// ``CardCollection``'s search keys: derived from its cards, so they take no part in its
/// equality (whether they were made yet changes nothing a person sees).
private struct FoldedKeys: Equatable, Sendable {
    var keys = SearchKeys()

    static func == (_: Self, _: Self) -> Bool { true }
}
