public import CardModels
public import Foundation

/// A card's image as `GET /card/{cardId}/image` returns it.
public struct CardImage: Sendable, Hashable {
    /// The image bytes.
    public let data: Data
    /// The `Content-Type` the server sent, e.g. `image/png`.
    public let contentType: String
    /// The format from the first bytes, or `nil` if they are neither PNG nor JPEG.
    public let format: CardImageFormat?
    /// The card version the image belongs to, from the `ETag`, when sent.
    public let version: Int?

    /// An image.
    public init(data: Data, contentType: String, format: CardImageFormat?, version: Int?) {
        self.data = data
        self.contentType = contentType
        self.format = format
        self.version = version
    }
}

extension CardImage: CustomStringConvertible {
    /// `image/png, 20.0 KiB`.
    public var description: String { "\(contentType), \(ByteText.format(data.count))" }
}
