public import CardModels
public import Foundation

/// A card's picture as its backend gives it.
public struct CardImage: Sendable, Hashable {
    /// The image bytes.
    public let data: Data
    /// The `Content-Type` the server sent, e.g. `image/png`.
    public let contentType: String
    /// The format from the first bytes, or `nil` if they are neither PNG nor JPEG.
    public let format: CardImageFormat?
    /// The revision of the card the picture belongs to, when the server said.
    public let revision: CardRevision?

    /// An image.
    public init(data: Data, contentType: String, format: CardImageFormat?, revision: CardRevision?) {
        self.data = data
        self.contentType = contentType
        self.format = format
        self.revision = revision
    }
}

extension CardImage: CustomStringConvertible {
    /// `image/png, 20.0 KiB`.
    public var description: String { "\(contentType), \(ByteText.format(data.count))" }
}
