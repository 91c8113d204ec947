import CardScan
import CardScanCore
import Testing

/// Loading libtesseract at the first scan: the checks ``TesseractLibrary/load()`` makes, tried
/// on other library names without changing what this process has loaded.
@Suite("Loading Tesseract")
struct TesseractLibraryTests {
    /// The error `load(candidates:)` throws, or `nil`.
    func loadError(_ candidates: [String]) -> CardScanError? {
        do {
            try TesseractLibrary.load(candidates: candidates)
            return nil
        } catch {
            return error
        }
    }

    @Test("a library that is not installed is one sentence naming it and the package to install")
    func missingLibrary() throws {
        let missing = "libcardwallet-no-such-ocr.so.9"
        let error = try #require(loadError([missing, "libcardwallet-no-such-ocr.so"]))
        guard case .ocrLibraryMissing(let library, let reason) = error else {
            Issue.record("expected ocrLibraryMissing, got \(error)")
            return
        }
        #expect(library == missing)
        #expect(reason.contains(missing), "the loader's reason: \(reason)")
        #expect(error.description.contains(missing), "\(error)")
        #expect(error.description.contains("apt-get install libtesseract5"), "\(error)")
        #expect(!error.description.contains("\n"))
        #expect(!error.isAboutThePhoto)
    }

    @Test("a library without Tesseract's functions is refused, naming the first one missing")
    func libraryWithoutTheFunctions() throws {
        let error = try #require(loadError(["libsqlite3.so.0"]))
        guard case .ocrLibraryMissing(_, let reason) = error else {
            Issue.record("expected ocrLibraryMissing, got \(error)")
            return
        }
        #expect(reason == "libsqlite3.so.0 has no function TessBaseAPICreate", "\(reason)")
    }

    @Test("the installed libtesseract has every function the scanner calls")
    func installedLibrary() {
        #expect(loadError([TesseractLibrary.name]) == nil)
    }
}
