import Foundation

/// The JSON layout of the token file. Version 1 holds token pairs only:
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
/// Version 2 adds items of another kind beside them, told by `"kind"`: `"password"` items hold a
/// user name (`account`) and an app password (`password`) for a server that logs in with them on
/// every request; token items have no `kind` (or `"tokens"`). A file is written as version 1
/// while it holds token pairs only, so an older cardwallet keeps reading it; version 2 only once
/// a password is stored. Both versions are read.
///
/// Version 3 adds the accounts the wallet remembers (`accounts`: ``AccountRecord``s, each with its
/// kind of server and where its secret lives) and which one is the default (`defaultAccount`).
/// Every file this code writes is version 3. A version 1 or 2 file is migrated as it is
/// read, without loss: each token pair is an account on the card API (token pairs came only from
/// there), each password an account on a CardDAV server whose secret is in this file; the next
/// write keeps them as records.
///
/// Unknown keys are ignored (a later writer may add optional fields); a higher `version` is
/// refused as "written by a newer cardwallet". `accessTokenLifetime` (seconds, a number) is such
/// an optional field: files written before it existed read with `nil`.
enum TokenFileFormat {
    /// The highest version this code reads and writes.
    static let currentVersion = 3
    /// The version of a file that holds token pairs and passwords, without account records.
    static let passwordsVersion = 2
    /// The version of a file that holds token pairs only.
    static let tokensOnlyVersion = 1
    /// The kind a version 1 or 2 file's token pair is migrated to: the card API's.
    static let migratedTokensKind = "cardAPI"
    /// The kind a version 2 file's password is migrated to: CardDAV's.
    static let migratedPasswordKind = "cardDAV"
    /// Files above this size are refused unread; real ones are a few hundred bytes per account.
    static let maximumSize = 4 * 1024 * 1024

    /// Encodes items, sorted by kind, server and account so the bytes are stable.
    static func encode(_ credentials: StoredCredentials) throws(TokenStoreError) -> Data {
        let tokens = credentials.tokens.sorted { ($0.server, $0.account) < ($1.server, $1.account) }
        let passwords = credentials.passwords.sorted { ($0.server, $0.account) < ($1.server, $1.account) }
        let accounts = credentials.accounts.sorted { $0.name.lowercased() < $1.name.lowercased() }
        // Always the current version once written by this code: a version 1 or 2 file is
        // migrated as it is read, and tokens without a record must not become accounts again.
        let file = StoredFile(
            version: currentVersion, defaultAccount: accounts.isEmpty ? nil : credentials.defaultAccount,
            accounts: accounts.isEmpty ? nil : accounts,
            items: tokens.map(StoredItem.init) + passwords.map(StoredItem.init))
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
    static func decode(_ data: Data) throws(TokenStoreError.UnreadableReason) -> StoredCredentials {
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
        var credentials = StoredCredentials()
        for (index, stored) in file.items.enumerated() {
            // A duplicate key (only possible in a hand-edited file): the later entry wins.
            switch try stored.credential(at: index, fileVersion: header.version) {
            case .tokens(let item):
                credentials.tokens.removeAll { $0.matches(server: item.server, account: item.account) }
                credentials.tokens.append(item)
            case .password(let item):
                credentials.passwords.removeAll { $0.matches(server: item.server, account: item.account) }
                credentials.passwords.append(item)
            }
        }
        if header.version >= currentVersion {
            for record in file.accounts ?? [] {
                // A duplicate name or account (only in a hand-edited file): the later entry wins.
                credentials.accounts.removeAll {
                    $0.isNamed(record.name) || $0.matches(server: record.server, user: record.user)
                }
                credentials.accounts.append(record)
            }
            credentials.defaultAccount = file.defaultAccount
        } else {
            credentials.accounts = migratedRecords(credentials)
        }
        return credentials
    }

    /// The records of a version 1 or 2 file: an account per token pair (the card API) and per
    /// password (CardDAV, its password in this file, its book the password's place).
    static func migratedRecords(_ credentials: StoredCredentials) -> [AccountRecord] {
        var records: [AccountRecord] = []
        for item in credentials.tokens {
            let name = AccountRecord.derivedName(user: item.account, server: item.server, taken: records)
            records.append(
                AccountRecord(name: name, kind: migratedTokensKind, server: item.server, user: item.account))
        }
        for item in credentials.passwords {
            let name = AccountRecord.derivedName(user: item.account, server: item.server, taken: records)
            records.append(
                AccountRecord(
                    name: name, kind: migratedPasswordKind, server: item.server, user: item.account, book: item.place,
                    secret: .file))
        }
        return records
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
        var defaultAccount: String?
        var accounts: [AccountRecord]?
        var items: [StoredItem]
    }

    /// One item as stored: a token pair (dates are ISO 8601 strings, tokens plain strings), or,
    /// with `kind` `password`, a user name and a password.
    struct StoredItem: Codable {
        var kind: String?
        var server: String
        var account: String
        var accessToken: String?
        var accessTokenExpiresAt: String?
        var accessTokenLifetime: Double?
        var refreshToken: String?
        var refreshTokenExpiresAt: String?
        var userID: String?
        var displayName: String?
        var password: String?
        var place: String?

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

        init(_ item: PasswordItem) {
            kind = "password"
            server = item.server
            account = item.account
            password = item.password
            place = item.place
        }

        /// What a stored item holds.
        enum Credential {
            case tokens(TokenItem)
            case password(PasswordItem)
        }

        func credential(at index: Int, fileVersion: Int) throws(TokenStoreError.UnreadableReason) -> Credential {
            switch kind {
            case nil, "tokens"?:
                return .tokens(try item(at: index))
            case "password"? where fileVersion >= 2:
                guard let password, !password.isEmpty else {
                    throw .wrongFormat(detail: "`items[\(index)].password` is missing")
                }
                let item = PasswordItem(server: server, account: account, password: password, place: place)
                guard !item.server.isEmpty, !item.account.isEmpty else {
                    throw .wrongFormat(detail: "`items[\(index)]` has an empty server or account")
                }
                return .password(item)
            default:
                throw .wrongFormat(detail: "`items[\(index)].kind` is not an item kind this cardwallet knows")
            }
        }

        func item(at index: Int) throws(TokenStoreError.UnreadableReason) -> TokenItem {
            guard let accessToken else { throw .wrongFormat(detail: "`items[\(index)].accessToken` is missing") }
            guard let refreshToken else { throw .wrongFormat(detail: "`items[\(index)].refreshToken` is missing") }
            guard let accessTokenExpiresAt else {
                throw .wrongFormat(detail: "`items[\(index)].accessTokenExpiresAt` is missing")
            }
            guard let refreshTokenExpiresAt else {
                throw .wrongFormat(detail: "`items[\(index)].refreshTokenExpiresAt` is missing")
            }
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
