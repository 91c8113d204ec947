import CQRencode
import Foundation

/// A QR code symbol: a square of dark and light modules, encoded with libqrencode.
///
/// The text is encoded in byte mode as UTF-8 (so Korean, accents and emoji survive; readers
/// such as zxing and phone cameras recognise UTF-8 in byte mode), at the smallest version that
/// holds it at the chosen error-correction level.
public struct QRCode: Sendable, Hashable {
    /// The error-correction level: how much of the symbol may be damaged and still read.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// About 7 %: the most capacity.
        case low = "L"
        /// About 15 %: the usual choice.
        case medium = "M"
        /// About 25 %.
        case quartile = "Q"
        /// About 30 %.
        case high = "H"

        var library: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Why text could not become a symbol.
    public enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// More bytes than the largest symbol (version 40) holds at this level.
        case tooLong(bytes: Int, level: Level)
        /// Nothing to encode.
        case empty
        /// libqrencode failed otherwise (out of memory).
        case failed(String)

        /// One sentence.
        public var description: String {
            switch self {
            case .tooLong(let bytes, let level):
                "The text is \(bytes) bytes, more than a QR code holds at error-correction level \(level.rawValue)."
            case .empty: "There is no text to encode."
            case .failed(let reason): "The QR code could not be made: \(reason)."
            }
        }
    }

    /// The symbol version, 1...40.
    public let version: Int
    /// Modules per side (21 + 4 × (version − 1)), without the quiet zone.
    public let size: Int
    /// `size × size` modules, row by row: `true` is dark.
    public let modules: [Bool]

    /// The quiet zone every rendering adds around the symbol, in modules (the standard's 4).
    public static let quietZone = 4

    /// Encodes `text` (UTF-8, byte mode).
    ///
    /// - Throws: ``EncodeError``.
    public init(text: String, level: Level = .medium) throws(EncodeError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        // Owns the QRcode from libqrencode until copied into Swift values, freed on every path.
        errno = 0
        let symbol = bytes.withUnsafeBufferPointer {
            QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level.library)
        }
        guard let symbol else {
            if errno == ERANGE { throw .tooLong(bytes: bytes.count, level: level) }
            throw .failed(String(cString: strerror(errno)))
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        version = Int(symbol.pointee.version)
        size = width
        // Bit 0 of each byte is the module's colour; the others are libqrencode's bookkeeping.
        modules = (0..<(width * width)).map { symbol.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at (`x`, `y`) is dark; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Modules per side with the quiet zone.
    public var sizeWithQuietZone: Int { size + 2 * Self.quietZone }

    /// The terminal size the half-block rendering needs: one column per module and one row per
    /// two modules, quiet zone included. A smaller terminal should say this rather than draw
    /// a symbol no camera can read.
    public var requiredCells: CellSize {
        CellSize(columns: sizeWithQuietZone, rows: (sizeWithQuietZone + 1) / 2)
    }
}
