import CardVCard

/// Hands bytes out in chunks of a fixed size, to prove that where the chunks end (inside a CR
/// LF, a fold, a UTF-8 sequence) changes nothing.
struct ChunkedSource: VCardByteSource {
    var bytes: [UInt8]
    var size: Int
    var offset = 0

    init(_ bytes: [UInt8], size: Int) {
        self.bytes = bytes
        self.size = size
    }

    mutating func nextChunk() throws -> [UInt8]? {
        guard offset < bytes.count else { return nil }
        defer { offset += size }
        return Array(bytes[offset..<min(offset + size, bytes.count)])
    }
}

/// A small deterministic generator (SplitMix64), so fuzz runs are the same on every machine.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension VCardReader {
    /// Every item, read to the end.
    mutating func all() -> (cards: [VCard], problems: [VCardProblem], warnings: [VCardProblem]) {
        var cards: [VCard] = []
        var problems: [VCardProblem] = []
        var warnings: [VCardProblem] = []
        while let item = next() {
            switch item {
            case .card(let card): cards.append(card)
            case .problem(let problem): problems.append(problem)
            case .warning(let warning): warnings.append(warning)
            }
        }
        return (cards, problems, warnings)
    }
}
