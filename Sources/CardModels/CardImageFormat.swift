/// The image formats a card may carry, recognised by their first bytes ("magic numbers"),
/// never by a file name or a declared content type.
public enum CardImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// Portable Network Graphics.
    case png
    /// JPEG (JFIF or Exif).
    case jpeg

    /// The MIME type: `image/png` or `image/jpeg`.
    public var contentType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        }
    }

    /// The format of an image from its first bytes, or `nil` when it is neither PNG nor JPEG.
    ///
    /// PNG starts with `89 50 4E 47 0D 0A 1A 0A`; JPEG with `FF D8 FF`.
    /// - Parameter bytes: the image, or at least its first eight bytes.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The format whose MIME type is `contentType` (parameters and case ignored), or `nil`.
    public init?(contentType: String) {
        let type = contentType.split(separator: ";").first.map { String($0).trimmedForCard.lowercased() } ?? ""
        switch type {
        case "image/png": self = .png
        case "image/jpeg", "image/jpg": self = .jpeg
        default: return nil
        }
    }
}
