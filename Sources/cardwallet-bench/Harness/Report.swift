/// What a row's numbers measure, which decides how they print.
enum Quantity: Sendable {
    /// Seconds, printed as ns, µs, ms or s.
    case time
    /// Bytes, printed in MB of 10^6 bytes (the stricter reading of a target in MB).
    case bytes
    /// Requests per second.
    case rate
    /// A plain number.
    case count
}

/// A goal for one row: a bound on its median or on its ratio.
struct Target: Sendable {
    /// Which number of the row the bound applies to.
    enum Subject: Sendable {
        /// The row's median.
        case median
        /// The row's ratio (its median).
        case ratio
        /// Every sample of the row: its min and its max both keep the bound.
        case everySample
    }

    /// The bound.
    enum Bound: Sendable {
        case atMost(Double)
        case atLeast(Double)
    }

    /// Which number is checked.
    var subject: Subject
    /// The bound it must keep.
    var bound: Bound
    /// How the target prints, e.g. `median ≤ 1 ms`.
    var label: String

    /// A bound on the row's median.
    static func median(_ bound: Bound, _ label: String) -> Target {
        Target(subject: .median, bound: bound, label: label)
    }

    /// A bound on the row's ratio.
    static func ratio(_ bound: Bound, _ label: String) -> Target {
        Target(subject: .ratio, bound: bound, label: label)
    }

    /// A bound every sample of the row must keep (a count that must be exactly 1, say).
    static func everySample(_ bound: Bound, _ label: String) -> Target {
        Target(subject: .everySample, bound: bound, label: label)
    }

    /// Whether `row` meets the target; `nil` when the row lacks the number it bounds.
    func isMet(by row: ResultRow) -> Bool? {
        let values: [Double]? =
            switch subject {
            case .median: row.summary.map { [$0.median] }
            case .ratio: row.ratio.map { [$0.median] }
            case .everySample: row.summary.map { [$0.min, $0.max] }
            }
        guard let values else { return nil }
        return values.allSatisfy { value in
            switch bound {
            case .atMost(let limit): value <= limit
            case .atLeast(let limit): value >= limit
            }
        }
    }
}

/// One line of a result table.
struct ResultRow: Sendable {
    /// What was measured, e.g. `render a 200×60 frame`.
    var label: String
    /// The size or setting it was measured at, e.g. `100,000 cards` or `c=32`.
    var size: String
    /// The samples' spread; `nil` for a row that only carries a ratio.
    var summary: Summary?
    /// How to print the numbers.
    var quantity: Quantity
    /// The ratio to the table's baseline, measured in the same run (median and spread).
    var ratio: Summary?
    /// The goals the issue sets for this row (none for most rows).
    var targets: [Target] = []

    /// `PASS` when every target is met, `MISS` when one is not, `—` without targets (or when
    /// the row lacks a number a target bounds).
    var verdict: String {
        let results = targets.map { $0.isMet(by: self) }
        guard !results.isEmpty, !results.contains(nil) else { return "—" }
        return results.allSatisfy { $0 == true } ? "PASS" : "MISS"
    }

    /// The targets as the table prints them.
    var targetLabel: String { targets.map(\.label).filter { !$0.isEmpty }.joined(separator: "; ") }
}

/// The rows of one figure, with the name of its ratio column.
struct ResultTable: Sendable {
    /// The table's heading, e.g. `§3 List scale — frame and keystroke time`.
    var title: String
    /// What the ratio column divides by, e.g. `÷ 1,000 cards` or `mock ÷ bare`.
    var ratioHeader: String
    /// The rows, in order.
    var rows: [ResultRow] = []
    /// Lines printed under the table: how it was measured, sanity checks.
    var notes: [String] = []
}
