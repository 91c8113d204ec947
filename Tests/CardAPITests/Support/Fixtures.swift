import Foundation

/// Image bytes for uploads.
enum Fixtures {
    /// A PNG header and a little more (the server sniffs only the first bytes).
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<2000).map { UInt8($0 % 251) })
    /// A JPEG start.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x42, count: 500)
}
