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

/// A card as the server keeps it: its owner, the card, and the image bytes.
struct StoredCard: Codable, Sendable, Equatable {
    var ownerID: String
    var card: Card
    var image: SeedImage?
}
