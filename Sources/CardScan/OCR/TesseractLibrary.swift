import CTesseractLoader
package import CardScanCore
import Foundation

/// Tesseract and Leptonica, loaded into the process at the first scan rather than linked.
///
/// Linked, they and the 46 libraries they depend on (libcurl, GnuTLS, ICU, libtiff…) were
/// mapped by every start of `cardwallet`, `--help` included, for the one command and screen
/// that scan (docs/Scan.md, "Loading Tesseract on demand"). `CTesseractLoader` defines every
/// Tesseract and Leptonica function CardScan calls and forwards it to the library loaded here,
/// so every entry point of ``CardScanner`` calls ``load()`` before anything else.
package enum TesseractLibrary {
    /// The library named in messages: the file Debian's `libtesseract5` installs.
    package static let name = "libtesseract.so.5"

    /// Loads the libraries (once per process; later calls cost a check) and silences their
    /// messages.
    ///
    /// - Throws: ``CardScanError/ocrLibraryMissing(library:reason:)`` when libtesseract cannot
    ///   be loaded or lacks a function; the failure is kept for the rest of the process.
    package static func load() throws(CardScanError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard ctess_load(&reason, reason.count) == 0 else {
            TesseractMessages.quiet()
            return
        }
        throw .ocrLibraryMissing(library: name, reason: text(reason))
    }

    /// Tries to load Tesseract from `candidates` (in order) with the same checks as ``load()``,
    /// then unloads it again, leaving the process's own loading alone. For tests.
    ///
    /// - Throws: ``CardScanError/ocrLibraryMissing(library:reason:)`` naming the first
    ///   candidate, with the loader's reason.
    package static func load(candidates: [String]) throws(CardScanError) {
        let copies = candidates.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let names = copies.map { UnsafePointer($0) }
        var reason = [CChar](repeating: 0, count: 512)
        guard ctess_try_load(names, names.count, &reason, reason.count) == 0 else { return }
        throw .ocrLibraryMissing(library: candidates.first ?? name, reason: text(reason))
    }

    /// The text of a C string buffer, up to its terminating zero.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
