import CardModels
import Foundation
import GRDB

// The rows of the `--data` database: plain structs, one per table, read and written with
// GRDB's Codable records. Each converts from and to the in-memory value the server works on.

/// Dates are stored as seconds since 2001 (a REAL), exactly the `Date` the server holds, so a
/// card reads back with the same `updatedAt` to the last bit.
protocol StoredRow: Codable, FetchableRecord, PersistableRecord {}

extension StoredRow {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    /// JSON columns use the API's own encoding, so they hold what the wire holds.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder { CardWalletJSON.encoder() }

    static func databaseJSONDecoder(for column: String) -> JSONDecoder { CardWalletJSON.decoder() }
}

/// A user: `user`.
struct UserRow: StoredRow, Equatable {
    static let databaseTableName = "user"

    var id: String
    var email: String
    var name: String
    var passwordHash: String

    init(_ user: UserRecord) {
        id = user.id
        email = user.email
        name = user.name
        passwordHash = user.passwordHash
    }

    var record: UserRecord { UserRecord(id: id, email: email, name: name, passwordHash: passwordHash) }
}

/// A card without its image bytes: `card`. The editable fields are one JSON column.
struct CardRow: StoredRow, Equatable {
    static let databaseTableName = "card"

    var id: String
    var ownerID: String
    var position: Int
    var version: Int
    var createdAt: Date
    var updatedAt: Date
    var imageContentType: String?
    var imageSize: Int?
    var fields: CardFields

    init(_ stored: StoredCard) {
        id = stored.card.id
        ownerID = stored.ownerID
        position = stored.position
        version = stored.card.version
        createdAt = stored.card.createdAt
        updatedAt = stored.card.updatedAt
        imageContentType = stored.card.image?.contentType
        imageSize = stored.card.image?.size
        fields = stored.card.fields
    }

    /// The stored card, with `image` (its bytes, from ``CardImageRow``).
    func stored(image: SeedImage?) -> StoredCard {
        let info = imageContentType.map { CardImageInfo(contentType: $0, size: imageSize ?? 0) }
        let card = APICard(
            id: id, fields: fields, hasImage: info != nil, image: info, createdAt: createdAt, updatedAt: updatedAt,
            version: version)
        return StoredCard(ownerID: ownerID, card: card, image: info == nil ? nil : image, position: position)
    }
}

/// A card's image bytes: `cardImage`, one row per card that has an image.
struct CardImageRow: StoredRow, Equatable {
    static let databaseTableName = "cardImage"

    var cardID: String
    var contentType: String
    var data: Data

    init(cardID: String, image: SeedImage) {
        self.cardID = cardID
        contentType = image.contentType
        data = image.data
    }

    var image: SeedImage { SeedImage(contentType: contentType, data: data) }
}

/// A token family (one login and its refreshes): `tokenFamily`.
struct TokenFamilyRow: StoredRow, Equatable {
    static let databaseTableName = "tokenFamily"

    var id: String
    var userID: String
    var revoked: Bool

    init(id: String, _ family: TokenBook.Family) {
        self.id = id
        userID = family.userID
        revoked = family.revoked
    }

    var family: TokenBook.Family { TokenBook.Family(userID: userID, revoked: revoked) }
}

/// An access token's digest: `accessToken`.
struct AccessTokenRow: StoredRow, Equatable {
    static let databaseTableName = "accessToken"

    var selector: String
    var verifier: Data
    var familyID: String
    var userID: String
    var expiresAt: Date

    init(selector: String, _ record: TokenBook.AccessRecord) {
        self.selector = selector
        verifier = record.verifier
        familyID = record.familyID
        userID = record.userID
        expiresAt = record.expiresAt
    }

    var record: TokenBook.AccessRecord {
        TokenBook.AccessRecord(verifier: verifier, familyID: familyID, userID: userID, expiresAt: expiresAt)
    }
}

/// A refresh token's digest and state: `refreshToken`.
struct RefreshTokenRow: StoredRow, Equatable {
    static let databaseTableName = "refreshToken"

    var selector: String
    var verifier: Data
    var familyID: String
    var userID: String
    var expiresAt: Date
    var state: TokenBook.RefreshState

    init(selector: String, _ record: TokenBook.RefreshRecord) {
        self.selector = selector
        verifier = record.verifier
        familyID = record.familyID
        userID = record.userID
        expiresAt = record.expiresAt
        state = record.state
    }

    var record: TokenBook.RefreshRecord {
        TokenBook.RefreshRecord(
            verifier: verifier, familyID: familyID, userID: userID, expiresAt: expiresAt, state: state)
    }
}
