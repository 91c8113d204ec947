/// Why an image cannot be shown: one sentence a person can read, never a crash.
public struct ImageDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// No bytes at all.
        case empty
        /// Neither PNG nor JPEG.
        case unknownFormat
        /// More bytes than the limit.
        case tooManyBytes
        /// More pixels (or a longer side) than the limit.
        case tooLarge
        /// The decoder found damaged, truncated or unsupported data.
        case corrupt
        /// Memory could not be had (or the decoder's own cap was reached).
        case outOfMemory
    }

    /// The kind of problem.
    public let kind: Kind
    /// The sentence.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static let empty = ImageDecodeError(.empty, "The image is empty (0 bytes).")
    static let unknownFormat = ImageDecodeError(.unknownFormat, "The image is neither a PNG nor a JPEG file.")

    static func tooManyBytes(_ count: Int, limit: Int) -> ImageDecodeError {
        ImageDecodeError(.tooManyBytes, "The image is \(count) bytes; at most \(limit) are decoded.")
    }

    static func tooLarge(_ size: PixelSize, limits: DecodeLimits) -> ImageDecodeError {
        ImageDecodeError(
            .tooLarge,
            "The image is \(size) pixels; at most \(limits.maximumSide) pixels a side and "
                + "\(limits.maximumPixels / 1_000_000) megapixels are decoded.")
    }

    static func corrupt(_ format: String, _ detail: String) -> ImageDecodeError {
        let cleaned = Self.printable(detail)
        return ImageDecodeError(
            .corrupt, "The \(format) image cannot be decoded: \(cleaned.isEmpty ? "damaged data" : cleaned).")
    }

    /// A library message made safe to print: control characters (C0, DEL, C1) dropped, a trailing full stop
    /// removed (the sentence adds its own), at most 160 characters.
    static func printable(_ text: String) -> String {
        var kept = String(
            text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }.prefix(160))
        while kept.hasSuffix(".") || kept.hasSuffix(" ") { kept.removeLast() }
        return kept
    }
}

/// Caps that keep a hostile file from costing unbounded memory or time.
public struct DecodeLimits: Sendable, Hashable {
    /// The most bytes of a file to look at (default 32 MiB).
    public var maximumBytes: Int
    /// The longest side, in pixels (default 16 384).
    public var maximumSide: Int
    /// The most pixels, width × height of the file (default 40 million).
    public var maximumPixels: Int
    /// The most working memory libjpeg may use (default 256 MiB).
    public var maximumDecoderMemory: Int
    /// The most scans a progressive JPEG may have (default 500, TurboJPEG's limit).
    public var maximumScans: Int

    /// Limits.
    public init(
        maximumBytes: Int = 32 << 20, maximumSide: Int = 16_384, maximumPixels: Int = 40_000_000,
        maximumDecoderMemory: Int = 256 << 20, maximumScans: Int = 500
    ) {
        self.maximumBytes = maximumBytes
        self.maximumSide = maximumSide
        self.maximumPixels = maximumPixels
        self.maximumDecoderMemory = maximumDecoderMemory
        self.maximumScans = maximumScans
    }

    /// The defaults.
    public static let standard = DecodeLimits()

    func check(_ size: PixelSize) throws(ImageDecodeError) {
        guard size.width > 0, size.height > 0 else {
            throw ImageDecodeError(.corrupt, "The image has no pixels (\(size)).")
        }
        guard size.width <= maximumSide, size.height <= maximumSide,
            size.width.multipliedReportingOverflow(by: size.height).partialValue <= maximumPixels
        else { throw .tooLarge(size, limits: self) }
    }
}
