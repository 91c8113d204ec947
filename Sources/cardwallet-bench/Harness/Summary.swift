/// The spread of a set of samples: count, min, median and max.
///
/// Benchmarks report the median (robust to the odd slow round on a shared machine) with the
/// min and max beside it, never a mean.
struct Summary: Equatable, Sendable {
    /// How many samples.
    var count: Int
    /// The smallest sample.
    var min: Double
    /// The middle sample; the mean of the two middle ones for an even count.
    var median: Double
    /// The largest sample.
    var max: Double
}

extension Summary {
    /// The summary of `samples`, or `nil` when there are none (or any is not finite).
    init?(_ samples: [Double]) {
        guard !samples.isEmpty, samples.allSatisfy(\.isFinite) else { return nil }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A summary of one value (a figure measured once, such as a count).
    init(single value: Double) {
        count = 1
        min = value
        median = value
        max = value
    }

    /// The median of the element-wise ratios `numerators[i] / denominators[i]` of paired
    /// samples (interleaved A/B rounds); `nil` when the lists differ in length, are empty, or
    /// a denominator is zero.
    static func pairedRatios(_ numerators: [Double], _ denominators: [Double]) -> Summary? {
        guard numerators.count == denominators.count, !denominators.contains(0) else { return nil }
        return Summary(zip(numerators, denominators).map { $0 / $1 })
    }
}
