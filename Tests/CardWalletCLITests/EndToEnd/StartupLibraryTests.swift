import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tesseract and Leptonica (and the 46 libraries they bring) are loaded at the first scan,
/// never at the start of `cardwallet` (issue 17; docs/Scan.md, "Loading Tesseract on demand").
extension EndToEndTests {
    /// Libraries whose presence means the OCR was loaded.
    static let ocrLibraries = ["libtesseract", "liblept"]

    /// With `LD_TRACE_LOADED_OBJECTS` the dynamic loader prints the libraries the binary needs
    /// and exits before `main`: the link itself names no OCR library.
    @Test func theExecutableDoesNotLinkTesseract() async throws {
        let folder = try TemporaryFolder("startup-libraries")
        defer { folder.remove() }
        let process = try CLIProcess(
            ["--help"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"], input: nil, scratch: folder)
        let result = try await process.finish()
        #expect(result.status == 0, "\(result)")
        // The loader really listed the libraries: the token store's SQLite is among them.
        #expect(result.stdout.contains("libsqlite3"), "\(result)")
        for library in Self.ocrLibraries {
            #expect(!result.stdout.contains(library), "\(library) is linked:\n\(result.stdout)")
        }
    }

    /// The interface holds a scanner from its start (made with the performer that sends its
    /// requests); once it asks for the cards, still no OCR library is mapped (read from
    /// `/proc/PID/maps` while it runs).
    @Test func theRunningInterfaceHasNotLoadedTesseract() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let terminal = try PseudoTerminal()
            let screen = ScreenReader(terminal)
            let interface = try world.startInterface(on: terminal)
            defer { interface.signal(SIGKILL) }
            try await waitUntil("the interface to ask for the cards") {
                let log = (try? String(contentsOfFile: world.logFile, encoding: .utf8)) ?? ""
                return log.contains("→ GET /v1/cards")
            }
            let maps = try Self.mappedFiles(of: interface.processIdentifier)
            terminal.type("q")
            _ = try await interface.finish()
            await screen.stop()

            #expect(maps.contains("libncursesw"), "the maps were not the interface's:\n\(maps)")
            for library in Self.ocrLibraries {
                #expect(!maps.contains(library), "\(library) is mapped:\n\(maps)")
            }
        }
    }

    /// `/proc/PID/maps` in full: read to the end (String(contentsOfFile:) takes the size of a
    /// /proc file, 0, as a hint and stops after the first 4 KiB).
    static func mappedFiles(of pid: Int32) throws -> String {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    }
}
