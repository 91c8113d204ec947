import CardModels
import Foundation

/// A user as the server keeps it: never the password, only its bcrypt hash.
struct UserRecord: Codable, Sendable, Equatable {
    var id: String
    var email: String
    var name: String
    var passwordHash: String

    /// The user as the API shows it.
    var user: User { User(id: id, email: email, name: name) }

    /// Emails are compared trimmed and case-insensitively.
    static func emailKey(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

/// A card as the server keeps it: its owner, the card, the image bytes, and where it sits in
/// its owner's wallet.
struct StoredCard: Codable, Sendable, Equatable {
    var ownerID: String
    var card: APICard
    var image: SeedImage?
    /// The card's place in its owner's wallet: cards are listed by increasing position. Only
    /// the order matters (deleting a card leaves a gap), so adding a card writes one row.
    var position: Int

    init(ownerID: String, card: APICard, image: SeedImage? = nil, position: Int = 0) {
        self.ownerID = ownerID
        self.card = card
        self.image = image
        self.position = position
    }

    enum CodingKeys: String, CodingKey {
        case ownerID, card, image, position
    }

    /// Decodes a card; JSON data files written before positions existed take theirs from the
    /// wallet order (see ``CardBook``).
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ownerID = try c.decode(String.self, forKey: .ownerID)
        card = try c.decode(APICard.self, forKey: .card)
        image = try c.decodeIfPresent(SeedImage.self, forKey: .image)
        position = try c.decodeIfPresent(Int.self, forKey: .position) ?? 0
    }
}
