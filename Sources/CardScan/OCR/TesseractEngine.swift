import CTesseract
import CardScanCore
import Foundation
import Synchronization

/// One Tesseract instance, initialised for a set of languages, owned by this object and ended
/// with it. Not `Sendable` and not reentrant (neither is `TessBaseAPI`): ``CardScanner`` keeps
/// one per language set and lends it to one scan at a time.
final class TesseractEngine {
    private let api: OpaquePointer
    /// The languages it reads, as given to Tesseract (`eng+kor`).
    let languages: OCRLanguages

    /// Starts Tesseract with the trained data of `languages`; call only after
    /// ``TesseractLibrary/load()`` (which also quiets the libraries).
    ///
    /// - Throws: ``CardScanError/missingLanguage(_:searched:)`` when a language's
    ///   `.traineddata` file is in none of the ``TessData/folders``, ``CardScanError/engineFailed(_:)``
    ///   when Tesseract refuses to start.
    init(languages: OCRLanguages) throws(CardScanError) {
        let folder = try TessData.folder(for: languages)
        guard let api = TessBaseAPICreate() else { throw .engineFailed("it could not be created") }
        self.api = api
        self.languages = languages
        // Tesseract prints through tprintf to stderr unless `debug_file` names another file
        // (a global, so setting it once quiets every instance).
        TesseractMessages.applyDebugFile(to: api)
        let status = TessBaseAPIInit2(api, folder, languages.tesseractName, OEM_LSTM_ONLY)
        if status != 0 {
            TessBaseAPIDelete(api)
            throw .engineFailed("it could not load \(languages.tesseractName) from \(folder)")
        }
        TessBaseAPISetPageSegMode(api, PSM_SPARSE_TEXT)
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Sets a Tesseract parameter; `false` when Tesseract does not know it.
    @discardableResult
    func set(_ name: String, _ value: String) -> Bool {
        TessBaseAPISetVariable(api, name, value) != 0
    }

    /// The page segmentation mode (`PSM_SPARSE_TEXT` unless changed).
    func setPageSegmentation(_ mode: TessPageSegMode) {
        TessBaseAPISetPageSegMode(api, mode)
    }

    /// Reads the text of `image`, stopping at `deadline` or when `cancel` is set.
    ///
    /// - Parameters:
    ///   - image: an upright 8-bit grey (or 1-bit) image.
    ///   - resolution: the pixels per inch to assume (it sets the size Tesseract expects text at).
    ///   - timeLimit: seconds before the recognition is stopped.
    ///   - cancel: set from any thread to stop the recognition early.
    /// - Returns: the lines found, in Tesseract's reading order, with word boxes in `image`'s
    ///   pixels; `nil` when the recognition was stopped (by the deadline or `cancel`).
    func recognize(_ image: LeptonicaImage, resolution: Int, timeLimit: Double, cancel: CancelFlag) -> OCRPage? {
        TesseractMessages.limitThreads()
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, Int32(resolution))
        defer { TessBaseAPIClear(api) }
        guard let monitor = TessMonitorCreate() else { return nil }
        defer { TessMonitorDelete(monitor) }
        // The deadline covers recognition word by word; the cancel function is asked between
        // words too, so Esc in the interface and a task's cancellation stop it within one word.
        TessMonitorSetDeadlineMSecs(monitor, Int32(max(1, timeLimit * 1000)))
        TessMonitorSetCancelFunc(monitor) { context, _ in
            guard let context else { return false }
            return Unmanaged<CancelFlag>.fromOpaque(context).takeUnretainedValue().isSet
        }
        let started = ContinuousClock.now
        let status = withExtendedLifetime(cancel) {
            TessMonitorSetCancelThis(monitor, Unmanaged.passUnretained(cancel).toOpaque())
            return TessBaseAPIRecognize(api, monitor)
        }
        let elapsed = ContinuousClock.now - started
        if cancel.isSet || elapsed > .milliseconds(Int(timeLimit * 1000)) { return nil }
        guard status == 0 else { return OCRPage(width: image.width, height: image.height, lines: []) }
        return OCRPage(width: image.width, height: image.height, lines: collectLines())
    }

    /// Walks the result character by character, starting a line at each text line Tesseract
    /// found and a word at each word; a word's character boxes put back the gaps between digit
    /// groups that Tesseract read as one word (``DigitGroups``).
    private func collectLines() -> [OCRLine] {
        guard let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var lines: [OCRLine] = []
        var current: [OCRWord] = []
        var pending: (word: OCRWord, characters: [OCRCharacter])?
        var block = -1
        func finishWord() {
            if let pending { current += DigitGroups.regrouped(pending.word, characters: pending.characters) }
            pending = nil
        }
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_WORD) != 0 {
                finishWord()
                if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { block += 1 }
                if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0, !current.isEmpty {
                    lines.append(OCRLine(words: current, block: max(0, block)))
                    current = []
                }
                pending = word(at: iterator, page: page).map { ($0, []) }
            }
            if let symbol = text(at: iterator, page: page, level: RIL_SYMBOL) {
                pending?.characters.append(OCRCharacter(text: symbol.text, box: symbol.box))
            }
        } while TessResultIteratorNext(iterator, RIL_SYMBOL) != 0
        finishWord()
        if !current.isEmpty { lines.append(OCRLine(words: current, block: max(0, block))) }
        return lines
    }

    /// The word the iterator is in, with its confidence.
    private func word(at iterator: OpaquePointer, page: OpaquePointer?) -> OCRWord? {
        guard let word = text(at: iterator, page: page, level: RIL_WORD) else { return nil }
        let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
        return OCRWord(text: word.text, box: word.box, confidence: max(0, min(100, confidence)))
    }

    /// The text and box of the word or the character (`level`) the iterator is at; `nil` when
    /// it holds no text.
    private func text(
        at iterator: OpaquePointer, page: OpaquePointer?, level: TessPageIteratorLevel
    ) -> (text: String, box: OCRBox)? {
        guard let raw = TessResultIteratorGetUTF8Text(iterator, level) else { return nil }
        defer { TessDeleteText(raw) }
        let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        var left: Int32 = 0
        var top: Int32 = 0
        var right: Int32 = 0
        var bottom: Int32 = 0
        guard TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else { return nil }
        return (text, OCRBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top)))
    }
}

/// A flag one thread sets and Tesseract's cancel function reads from another.
final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Asks the recognition to stop.
    func set() { flag.store(true, ordering: .relaxed) }

    /// Whether it was asked to stop.
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
