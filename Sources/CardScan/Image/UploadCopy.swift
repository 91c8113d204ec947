import CardImages
public import CardScanCore
public import Foundation

extension CardScanner {
    /// The photo as a card's image: the file itself when it is stored upright and within
    /// `maximumBytes`; else an upright JPEG copy in `folder`, scaled down until it fits. Phone
    /// photos are often larger than the card API takes (2 MiB) and stored sideways with an EXIF
    /// tag that not every viewer reads.
    ///
    /// - Parameters:
    ///   - url: the photo (already scanned, so known to be a PNG or JPEG).
    ///   - maximumBytes: the largest image the server takes.
    ///   - folder: where to write a copy (the caller removes it).
    /// - Returns: the file to upload.
    /// - Throws: ``CardScanError`` when the photo cannot be read or decoded, or no copy fits,
    ///   or libtesseract (whose Leptonica decodes the photo) cannot be loaded.
    public func imageForUpload(photoAt url: URL, maximumBytes: Int, folder: URL) throws(CardScanError) -> URL {
        try TesseractLibrary.load()
        let photo = try PhotoFile(at: url, limits: limits)
        if photo.orientation == .up && photo.bytes.count <= maximumBytes { return url }
        let path = url.path
        guard let decoded = LeptonicaImage.decode(photo.bytes), let upright = decoded.oriented(photo.orientation),
            var image = upright.jpegReady()
        else { throw .damagedImage(path: path, kind: photo.kind.rawValue.uppercased()) }
        for _ in 0..<8 {
            guard let bytes = image.jpegData(quality: 88) else { break }
            if bytes.count <= maximumBytes {
                let copy = folder.appendingPathComponent(UUID().uuidString + ".jpg")
                do {
                    try Data(bytes).write(to: copy)
                } catch {
                    throw .unreadable(path: copy.path, reason: "the copy to upload could not be written")
                }
                return copy
            }
            // JPEG size follows the pixel count: shrink by the square root of the excess, a
            // little more so the next try fits.
            let factor = min(0.9, (Double(maximumBytes) / Double(bytes.count)).squareRoot() * 0.95)
            guard let smaller = image.shrunk(by: factor) else { break }
            image = smaller
        }
        throw .fileTooLarge(path: path, bytes: photo.bytes.count, limit: maximumBytes)
    }
}
