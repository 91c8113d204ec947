import Foundation
import Synchronization

/// Runs C code that writes to standard error by itself — libjpeg's "Premature end of JPEG
/// file", libpng's "iCCP: known incorrect sRGB profile", which Leptonica lets through — with
/// file descriptor 2 pointed at /dev/null, then puts it back.
///
/// The redirection is process-wide, so it is held as briefly as one decode and serialised by a
/// lock; anything another thread writes to standard error in that window is lost too. The
/// commands write nothing while a photo decodes, and the interface keeps standard error in a
/// file of its own (`StrayOutputFile`). `CARDWALLET_SCAN_DEBUG=1` leaves standard error alone.
enum QuietStandardError {
    private static let lock = Mutex(())

    /// `body`'s result, with standard error silenced while it runs.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        guard !TesseractMessages.debugging else { return try body() }
        return try lock.withLock { _ in
            fflush(nil)
            let saved = dup(STDERR_FILENO)
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard saved >= 0, null >= 0 else {
                if saved >= 0 { close(saved) }
                if null >= 0 { close(null) }
                return try body()
            }
            dup2(null, STDERR_FILENO)
            close(null)
            defer {
                fflush(nil)
                dup2(saved, STDERR_FILENO)
                close(saved)
            }
            return try body()
        }
    }
}
