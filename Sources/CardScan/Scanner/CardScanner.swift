import CTesseract
public import CardScanCore
public import Foundation
import OwnThreads
import Synchronization

/// Reads photos of business cards: the photo's text with Tesseract, then the card's fields
/// with ``CardFieldExtractor``.
///
/// One scanner keeps one Tesseract instance (loading a language's model takes a few tenths of
/// a second), started on the first scan; scans through one scanner run one at a time, each on
/// a thread of its own so that the OCR never holds up Swift's concurrency pool. Cancelling the
/// calling task stops the OCR between two words.
public final class CardScanner: Sendable {
    /// The languages read.
    public let languages: OCRLanguages
    /// What is read and for how long.
    public let limits: ScanLimits
    /// How photos are prepared and read.
    package let tuning: ScanTuning
    private let engine = Mutex<TesseractEngine?>(nil)

    /// A scanner.
    ///
    /// - Parameters:
    ///   - languages: what the cards are written in (default Korean and English, `kor+eng`).
    ///   - limits: the largest photo and the longest OCR accepted.
    public convenience init(languages: OCRLanguages = .standard, limits: ScanLimits = ScanLimits()) {
        self.init(languages: languages, limits: limits, tuning: .standard)
    }

    /// A scanner tuned otherwise (for the benchmark's comparisons).
    ///
    /// Creating a scanner touches no library: Tesseract is loaded by the first call that
    /// needs it, so an interface can hold a scanner from its start at no cost.
    package init(languages: OCRLanguages, limits: ScanLimits, tuning: ScanTuning) {
        self.languages = languages
        self.limits = limits
        self.tuning = tuning
    }

    /// Loads the language models now rather than at the first scan.
    ///
    /// - Throws: ``CardScanError/ocrLibraryMissing(library:reason:)`` when libtesseract cannot
    ///   be loaded, ``CardScanError/missingLanguage(_:searched:)`` or
    ///   ``CardScanError/engineFailed(_:)`` when Tesseract cannot start.
    public func prepare() throws(CardScanError) {
        try TesseractLibrary.load()
        let result: Result<Void, CardScanError> = engine.withLock { engine in
            do throws(CardScanError) {
                _ = try self.startedEngine(&engine)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Scans the photo at `url` into card fields.
    ///
    /// - Throws: ``CardScanError``: the file is missing, unreadable, not a PNG or JPEG, damaged
    ///   or too large; no text was found; the time limit passed; the task was cancelled;
    ///   libtesseract cannot be loaded.
    public func scan(photoAt url: URL) async throws(CardScanError) -> ScannedCard {
        let started = ContinuousClock.now
        let page = try await read(photoAt: url, preparation: tuning.preparation, started: started)
        let extractor = CardFieldExtractor()
        guard let side = tuning.nameReadingLongSide, page.holdsHangul else { return extractor.extract(from: page) }
        // A Korean card: its name read again smaller, where large Hangul reads better
        // (NameReadings); within the same time limit, and only a help: a failure leaves the first reading.
        var smaller = tuning.preparation
        smaller.longSide = side
        var second: OCRPage?
        do throws(CardScanError) {
            second = try await read(photoAt: url, preparation: smaller, started: started)
        } catch {
            if case .cancelled = error { throw error }
        }
        return extractor.extract(from: page, nameReading: second)
    }

    /// Reads the text of the photo at `url`: its lines with word boxes and confidences.
    ///
    /// - Throws: as ``scan(photoAt:)``; a photo without any text is ``CardScanError/noText(path:)``.
    public func read(photoAt url: URL) async throws(CardScanError) -> OCRPage {
        try await read(photoAt: url, preparation: tuning.preparation, started: .now)
    }

    /// Reads the photo prepared with `preparation`, within the time limit counted from `started`.
    private func read(
        photoAt url: URL, preparation: PreparationOptions, started: ContinuousClock.Instant
    ) async throws(CardScanError) -> OCRPage {
        let cancel = CancelFlag()
        let result: Result<OCRPage, CardScanError> = await withTaskCancellationHandler {
            // Tesseract recurses deeply on some layouts; the default 512 KiB is not always enough.
            await OwnThread.run(name: "cardwallet.ocr", stackSize: 16 << 20) { [self] in
                readNow(url, preparation: preparation, started: started, cancel: cancel)
            }
        } onCancel: {
            cancel.set()
        }
        return try result.get()
    }

    private func readNow(
        _ url: URL, preparation: PreparationOptions, started: ContinuousClock.Instant, cancel: CancelFlag
    ) -> Result<OCRPage, CardScanError> {
        let path = url.path
        do throws(CardScanError) {
            // Before the photo is read: its header is read with Leptonica.
            try TesseractLibrary.load()
            let photo = try PhotoFile(at: url, limits: limits)
            let page: OCRPage? = try engine.withLock { engine throws(CardScanError) in
                // Prepared under the lock: the image then belongs to the engine's region, and
                // two scans through one scanner do not hold two decoded photos at once.
                let prepared = try photo.prepared(preparation, path: path)
                let tesseract = try startedEngine(&engine)
                if cancel.isSet { throw .cancelled }
                let remaining = limits.timeLimit - (ContinuousClock.now - started) / .seconds(1)
                guard remaining > 0 else { return nil }
                return tesseract.recognize(prepared.image, resolution: 300, timeLimit: remaining, cancel: cancel)
            }
            guard let page else { throw cancel.isSet ? .cancelled : .timedOut(path: path, seconds: limits.timeLimit) }
            guard page.lines.contains(where: \.isClearText) else { throw .noText(path: path) }
            return .success(page)
        } catch {
            return .failure(error)
        }
    }

    private func startedEngine(_ engine: inout TesseractEngine?) throws(CardScanError) -> TesseractEngine {
        if let engine { return engine }
        let started = try TesseractEngine(languages: languages)
        started.setPageSegmentation(tuning.pageSegmentation)
        for (name, value) in tuning.variables.sorted(by: { $0.key < $1.key }) where !started.set(name, value) {
            throw .engineFailed("it has no parameter \(name)")
        }
        engine = started
        return started
    }
}

extension Duration {
    /// The duration in seconds, for arithmetic with `Double` limits.
    fileprivate static func / (lhs: Duration, rhs: Duration) -> Double {
        let l = lhs.components
        let r = rhs.components
        return (Double(l.seconds) + Double(l.attoseconds) * 1e-18) / (Double(r.seconds) + Double(r.attoseconds) * 1e-18)
    }
}
