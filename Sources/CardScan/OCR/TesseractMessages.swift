import CTesseract
import CTesseractLoader
import Foundation
import Synchronization

/// Keeps Tesseract's and Leptonica's chatter ("Estimating resolution as 302", "Error in
/// pixReadMem: …", "Warning: Invalid resolution 0 dpi") off the user's terminal: the scanner
/// reports what matters itself. `CARDWALLET_SCAN_DEBUG=1` lets it through, for diagnosing.
enum TesseractMessages {
    private static let quieted = Mutex(false)

    /// Whether the libraries may print (`CARDWALLET_SCAN_DEBUG=1`).
    static var debugging: Bool {
        ProcessInfo.processInfo.environment["CARDWALLET_SCAN_DEBUG"] == "1"
    }

    /// Silences Leptonica for the rest of the process (its messages are global settings);
    /// called by ``TesseractLibrary/load()`` once the library is there.
    static func quiet() {
        let first = quieted.withLock { done in
            defer { done = true }
            return !done
        }
        guard first, !debugging else { return }
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        // Also catches what is printed regardless of severity.
        leptSetStderrHandler { _ in }
    }

    /// Runs Tesseract's OpenMP loops on the calling thread alone (see `ctess_run_openmp_inline`).
    /// `CARDWALLET_SCAN_THREADS=openmp` leaves OpenMP as it is, for comparing.
    static func limitThreads() {
        guard ProcessInfo.processInfo.environment["CARDWALLET_SCAN_THREADS"] != "openmp" else { return }
        _ = ctess_run_openmp_inline()
    }

    /// Sends Tesseract's tprintf output to /dev/null (unless debugging).
    static func applyDebugFile(to api: OpaquePointer) {
        guard !debugging else { return }
        TessBaseAPISetVariable(api, "debug_file", "/dev/null")
    }
}
