import Foundation
import Testing

/// The end-to-end tests spawn real `cardwallet` processes; they run one at a time so the
/// 20-process test has the machine to itself.
@Suite(.serialized) struct EndToEndTests {}

/// Image bytes for uploads.
enum Fixtures {
    /// A PNG signature and some bytes (the server sniffs only the first bytes).
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<2000).map { UInt8($0 % 251) })
}
