import CardImages
import CardScanCore
import Foundation

/// The image formats a photo may be in, judged by the file's first bytes (never its name).
enum PhotoKind: String, Sendable {
    case png, jpeg

    /// The eight bytes every PNG starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The kind of `bytes`, or `nil` when they are neither PNG nor JPEG.
    init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: Self.pngSignature) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }
}

/// A photo read from disk: its bytes, kind and EXIF orientation, checked before any decoding.
struct PhotoFile {
    /// The bytes of the file.
    let bytes: [UInt8]
    /// PNG or JPEG.
    let kind: PhotoKind
    /// How to turn the decoded pixels upright.
    let orientation: ExifOrientation

    /// Reads and checks the file at `url`.
    ///
    /// - Parameters:
    ///   - url: the photo.
    ///   - limits: the largest file and image accepted.
    /// - Throws: ``CardScanError`` when the file is missing, unreadable, too large, not a PNG
    ///   or JPEG, or declares more pixels than `limits` allow (checked from its header, so a
    ///   "decompression bomb" is refused before it is decoded).
    init(at url: URL, limits: ScanLimits) throws(CardScanError) {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .fileNotFound(path: path)
        }
        if isFolder.boolValue { throw .notAnImage(path: path, reason: "it is a folder") }
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        if size > limits.maximumFileBytes {
            throw .fileTooLarge(path: path, bytes: size, limit: limits.maximumFileBytes)
        }
        if size == 0 { throw .notAnImage(path: path, reason: "the file is empty") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        let bytes = [UInt8](data.prefix(limits.maximumFileBytes))
        guard let kind = PhotoKind(sniffing: bytes) else {
            throw .notAnImage(path: path, reason: "it is not a PNG or JPEG image")
        }
        guard let header = Self.pngSize(bytes) ?? LeptonicaImage.header(of: bytes) else {
            throw .damagedImage(path: path, kind: kind.rawValue.uppercased())
        }
        if header.width * header.height > limits.maximumPixels {
            throw .imageTooLarge(path: path, width: header.width, height: header.height, limit: limits.maximumPixels)
        }
        self.bytes = bytes
        self.kind = kind
        self.orientation = ExifOrientation.read(from: bytes)
    }

    /// A PNG's width and height, from its `IHDR` chunk (always the first, at byte 8), read
    /// here because Leptonica's header reader wants the whole file to be there.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: PhotoKind.pngSignature),
            bytes[12..<16].elementsEqual(Array("IHDR".utf8))
        else { return nil }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The system's reason, without Foundation's domain and code.
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        return error.localizedDescription
    }
}
