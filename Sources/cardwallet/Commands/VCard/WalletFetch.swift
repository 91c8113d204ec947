import CardAPI
import CardModels
import CardVCard
import CardWalletLive

/// Fetching many cards (and images) at once, a few requests at a time, results in order.
enum WalletFetch {
    /// How many requests run at once: enough to hide latency, few enough to stay polite.
    static let concurrency = 8

    /// Every card of the wallet with all its fields, in wallet order (`GET /cards`, then
    /// `GET /card/{id}` for each).
    ///
    /// - Parameter progress: called with the number fetched so far.
    static func allCards(_ client: CardAPIClient, progress: Progress? = nil) async throws -> [Card] {
        let summaries = try await client.allCards()
        return try await cards(ids: summaries.map(\.id), client, progress: progress)
    }

    /// The cards with these ids, in this order.
    ///
    /// - Throws: the first failure (E05 for a card that does not exist).
    static func cards(ids: [String], _ client: CardAPIClient, progress: Progress? = nil) async throws -> [Card] {
        try await inOrder(ids, progress: progress) { id in try await client.card(id: id) }
    }

    /// The photo of a card that has an image, or `nil`; an image the server holds that is not
    /// PNG or JPEG (it cannot, but the bytes decide) is left out. Read through `wallet`: recorded
    /// in the cache online, from the cache when `offline` or the server cannot be reached.
    ///
    /// - Returns: the photo, and whether the card has an image the cache does not hold (offline).
    static func photo(of card: Card, _ wallet: CachedWallet, offline: Bool) async throws -> (
        VCardPhoto?, notCached: Bool
    ) {
        guard card.hasImage else { return (nil, false) }
        let image: CardImage
        do {
            image = try await wallet.image(of: card, offline: offline).value
        } catch is OfflineReadError {
            return (nil, true)
        }
        guard let format = CardImageFormat(sniffing: image.data) else { return (nil, false) }
        return (VCardPhoto(bytes: [UInt8](image.data), format: format), false)
    }

    /// `work` on every element, at most ``concurrency`` at a time, results in input order.
    static func inOrder<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], progress: Progress? = nil, _ work: @escaping @Sendable (Input) async throws -> Output
    ) async throws -> [Output] {
        var results = [Output?](repeating: nil, count: inputs.count)
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            var done = 0
            while next < min(concurrency, inputs.count) {
                let index = next
                group.addTask { (index, try await work(inputs[index])) }
                next += 1
            }
            while let (index, output) = try await group.next() {
                results[index] = output
                done += 1
                progress?.update(done, of: inputs.count)
                if next < inputs.count {
                    let index = next
                    group.addTask { (index, try await work(inputs[index])) }
                    next += 1
                }
            }
        }
        return results.map { $0! }
    }
}
