import Foundation
import TokenStore

/// The items the stress commands write; the tests build the same ones to check the results.
enum StressItems {
    /// The server every stress item belongs to.
    static let server = "http://stress.invalid/v1"
    /// The account `write-loop` and `refresh` work on.
    static let targetAccount = "target"
    /// A fixed expiry, long past, so the `refresh` command sees an expired access token.
    static let expired = Date(timeIntervalSince1970: 1_700_000_000)

    /// The item for `account` at `generation`; its tokens are derived from both, and padded so
    /// a write takes long enough for a kill to land in the middle of it.
    static func item(
        account: String, generation: String, accessToken: String? = nil, accessExpiry: Date = expired
    ) -> TokenItem {
        let padding = String(repeating: "x", count: 1024)
        return TokenItem(
            server: server, account: account,
            accessToken: accessToken ?? "access-\(account)-\(generation)-\(padding)",
            accessTokenExpiresAt: accessExpiry,
            refreshToken: "refresh-\(account)-\(generation)-\(padding)",
            refreshTokenExpiresAt: expired.addingTimeInterval(86_400 * 365 * 10),
            userID: "id-\(account)", displayName: "Stress \(generation)")
    }
}
