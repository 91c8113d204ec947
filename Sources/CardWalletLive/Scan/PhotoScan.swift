import CardModels
import CardScan
import CardScanCore
import CardWalletUI
import Foundation
import Synchronization

/// The form's scan: a photo of a paper card read with `CardScan` (Tesseract) into card fields,
/// and the photo made ready to be the card's image. One scanner for the whole run (loading the
/// language models takes a few tenths of a second); upload copies go to a private folder that
/// ``removeFiles()`` deletes when the interface ends.
final class PhotoScan: Sendable {
    private let scanner = CardScanner()
    private let folder = Mutex<URL?>(nil)

    /// Reads the photo at `path` (`~` is the home folder).
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: ``CardWalletUI/UIFailure/Kind/cancelled`` when the
    ///   task was cancelled (Esc), else the scanner's one sentence (not an image, no text…).
    func scan(_ path: String, maximumImageBytes: Int) async throws(UIFailure) -> ScanResult {
        let url = URL(fileURLWithPath: LocalPath.expand(path))
        let card: ScannedCard
        do {
            card = try await scanner.scan(photoAt: url)
        } catch {
            if case .cancelled = error { throw UIFailure(.cancelled, message: "Scan stopped") }
            throw UIFailure(.other, message: error.description)
        }
        if Task.isCancelled { throw UIFailure(.cancelled, message: "Scan stopped") }
        var result = ScanResult(
            fields: card.fields, notes: card.notes.map { ScanResult.Note(field: $0.field, text: $0.text) })
        do {
            let upload = try scanner.imageForUpload(
                photoAt: url, maximumBytes: maximumImageBytes, folder: try privateFolder())
            result.imagePath = upload.path
        } catch {
            result.imageProblem = "the photo cannot be the card's image: \(error)"
        }
        return result
    }

    /// Deletes the upload copies made so far.
    func removeFiles() {
        folder.withLock { folder in
            if let url = folder { try? FileManager.default.removeItem(at: url) }
            folder = nil
        }
    }

    private func privateFolder() throws -> URL {
        try folder.withLock { folder in
            if let url = folder { return url }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "cardwallet-scan-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            folder = url
            return url
        }
    }
}
