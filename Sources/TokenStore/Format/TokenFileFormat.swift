import Foundation

/// The JSON layout of the token file, version 1:
///
/// ```json
/// {
///   "items" : [
///     {
///       "accessToken" : "…", "accessTokenExpiresAt" : "2026-11-21T09:30:00Z",
///       "accessTokenLifetime" : 299.87, "account" : "ann@example.com", "displayName" : "Ann", "refreshToken" : "…",
///       "refreshTokenExpiresAt" : "2026-12-21T09:30:00Z",
///       "server" : "http://127.0.0.1:8080/v1", "userID" : "u1"
///     }
///   ],
///   "version" : 1
/// }
/// ```
///
/// Unknown keys are ignored (a later version 1 writer may add optional fields); a higher
/// `version` is refused as "written by a newer cardwallet". `accessTokenLifetime` (seconds, a
/// number) is such an optional field: files written before it existed read with `nil`.
enum TokenFileFormat {
    /// The version this code writes and the highest it reads.
    static let currentVersion = 1
    /// Files above this size are refused unread; real ones are a few hundred bytes per account.
    static let maximumSize = 4 * 1024 * 1024

    /// Encodes items, sorted by server then account so the bytes are stable.
    static func encode(_ items: [TokenItem]) throws(TokenStoreError) -> Data {
        let sorted = items.sorted { ($0.server, $0.account) < ($1.server, $1.account) }
        let file = StoredFile(version: currentVersion, items: sorted.map(StoredItem.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(file)
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            // Strings and integers always encode; this is only reachable through a Foundation bug.
            throw .invalidItem(reason: "the items could not be encoded as JSON")
        }
    }

    /// Decodes a whole file, or says why it is not a token file (never quoting its contents).
    static func decode(_ data: Data) throws(TokenStoreError.UnreadableReason) -> [TokenItem] {
        if data.isEmpty { throw .empty }
        if data.count > maximumSize { throw .tooLarge(bytes: data.count) }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw reason(for: error)
        }
        guard header.version >= 1 else { throw .wrongFormat(detail: "format version \(header.version) is invalid") }
        guard header.version <= currentVersion else { throw .unsupportedVersion(header.version) }

        let file: StoredFile
        do {
            file = try decoder.decode(StoredFile.self, from: data)
        } catch {
            throw reason(for: error)
        }
        var items: [TokenItem] = []
        for (index, stored) in file.items.enumerated() {
            let item = try stored.item(at: index)
            // A duplicate key (only possible in a hand-edited file): the later entry wins.
            items.removeAll { $0.matches(server: item.server, account: item.account) }
            items.append(item)
        }
        return items
    }

    /// `2026-11-21T09:30:00Z`.
    static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Parses an ISO 8601 date with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Turns a decoding error into a reason that names fields, never values.
    private static func reason(for error: any Error) -> TokenStoreError.UnreadableReason {
        guard let error = error as? DecodingError else { return .notJSON }
        switch error {
        case .typeMismatch(let type, let context):
            return .wrongFormat(detail: "\(location(context.codingPath)) should be \(describe(type))")
        case .valueNotFound(let type, let context):
            return .wrongFormat(detail: "\(location(context.codingPath)) should be \(describe(type)), not null")
        case .keyNotFound(let key, let context):
            return .wrongFormat(detail: "\(location(context.codingPath + [key])) is missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .notJSON }
            return .wrongFormat(detail: "\(location(context.codingPath)) is malformed")
        @unknown default:
            return .wrongFormat(detail: "unexpected structure")
        }
    }

    private static func location(_ path: [any CodingKey]) -> String {
        if path.isEmpty { return "the top level" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return "`\(Quoting.display(text))`"
    }

    private static func describe(_ type: Any.Type) -> String {
        if type is String.Type { return "a string" }
        if type is Int.Type { return "an integer" }
        if type is Double.Type { return "a number" }
        if String(describing: type).hasPrefix("Array") { return "an array" }
        return "an object"
    }
}

extension TokenFileFormat {
    /// Just enough to check the version before trusting the rest of the layout.
    struct Header: Decodable {
        var version: Int
    }

    /// The whole file.
    struct StoredFile: Codable {
        var version: Int
        var items: [StoredItem]
    }

    /// One item as stored; dates are ISO 8601 strings, tokens plain strings.
    struct StoredItem: Codable {
        var server: String
        var account: String
        var accessToken: String
        var accessTokenExpiresAt: String
        var accessTokenLifetime: Double?
        var refreshToken: String
        var refreshTokenExpiresAt: String
        var userID: String?
        var displayName: String?

        init(_ item: TokenItem) {
            server = item.server
            account = item.account
            accessToken = item.accessToken
            accessTokenExpiresAt = TokenFileFormat.formatDate(item.accessTokenExpiresAt)
            accessTokenLifetime = item.accessTokenLifetime
            refreshToken = item.refreshToken
            refreshTokenExpiresAt = TokenFileFormat.formatDate(item.refreshTokenExpiresAt)
            userID = item.userID
            displayName = item.displayName
        }

        func item(at index: Int) throws(TokenStoreError.UnreadableReason) -> TokenItem {
            guard let accessExpiry = TokenFileFormat.parseDate(accessTokenExpiresAt) else {
                throw .wrongFormat(detail: "`items[\(index)].accessTokenExpiresAt` is not an ISO 8601 date")
            }
            guard let refreshExpiry = TokenFileFormat.parseDate(refreshTokenExpiresAt) else {
                throw .wrongFormat(detail: "`items[\(index)].refreshTokenExpiresAt` is not an ISO 8601 date")
            }
            if let accessTokenLifetime, !accessTokenLifetime.isFinite {
                throw .wrongFormat(detail: "`items[\(index)].accessTokenLifetime` is not a finite number")
            }
            let item = TokenItem(
                server: server, account: account,
                accessToken: accessToken, accessTokenExpiresAt: accessExpiry,
                refreshToken: refreshToken, refreshTokenExpiresAt: refreshExpiry,
                userID: userID, displayName: displayName, accessTokenLifetime: accessTokenLifetime)
            guard !item.server.isEmpty, !item.account.isEmpty else {
                throw .wrongFormat(detail: "`items[\(index)]` has an empty server or account")
            }
            return item
        }
    }
}
