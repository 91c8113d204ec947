import CardScan
import CardScanCore
import Foundation
import Testing

/// What the scanner says of files that are no card photo, and of limits reached.
@Suite("Scan errors")
struct ScanErrorTests {
    static let scanner = CardScanner()

    /// A fresh folder, removed after `body`.
    func inFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cardscan-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    func scanError(_ url: URL, with scanner: CardScanner = scanner) async -> CardScanError? {
        do {
            _ = try await scanner.scan(photoAt: url)
            return nil
        } catch {
            return error
        }
    }

    @Test("a text file, an empty file, a GIF and a folder are not photos")
    func notAnImage() async throws {
        try await inFolder { folder in
            let text = folder.appendingPathComponent("notes.jpg")
            try Data("Ada Lovelace, ada@example.com\n".utf8).write(to: text)
            let empty = folder.appendingPathComponent("empty.png")
            try Data().write(to: empty)
            let gif = folder.appendingPathComponent("card.gif")
            try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: gif)
            #expect(await scanError(text) == .notAnImage(path: text.path, reason: "it is not a PNG or JPEG image"))
            #expect(await scanError(empty) == .notAnImage(path: empty.path, reason: "the file is empty"))
            #expect(await scanError(gif) == .notAnImage(path: gif.path, reason: "it is not a PNG or JPEG image"))
            #expect(await scanError(folder) == .notAnImage(path: folder.path, reason: "it is a folder"))
            let missing = folder.appendingPathComponent("missing.jpg")
            #expect(await scanError(missing) == .fileNotFound(path: missing.path))
            #expect(
                CardScanError.notAnImage(path: text.path, reason: "it is not a PNG or JPEG image").description
                    == "\(text.path) is not a photo to scan: it is not a PNG or JPEG image. Give a PNG or JPEG photo of a card."
            )
        }
    }

    @Test("a blank photo has no text; a cut-off PNG is damaged")
    func blankAndDamaged() async throws {
        try await inFolder { folder in
            let blank = folder.appendingPathComponent("blank.png")
            try GeneratedCards.pillow("Image.new('RGB', (1050, 600), (246, 244, 238)).save(path)", to: blank)
            #expect(await scanError(blank) == .noText(path: blank.path))
            let grey = folder.appendingPathComponent("grain.jpg")
            // Seeded, so the same grain every run (Pillow's effect_noise is not).
            try GeneratedCards.pillow(
                """
                import random
                random.seed(1)
                pixels = bytes(max(0, min(255, int(random.gauss(200, 12)))) for _ in range(1050 * 600))
                Image.frombytes("L", (1050, 600), pixels).convert("RGB").save(path, quality=60)
                """, to: grey)
            // Grain takes Tesseract long to rule out: a generous time limit, so that a loaded
            // machine's slowness is not mistaken for an answer (the limit has its own test).
            let patient = CardScanner(languages: .standard, limits: ScanLimits(timeLimit: 120), tuning: .standard)
            let grain = await scanError(grey, with: patient)
            #expect(grain == .noText(path: grey.path), "\(String(describing: grain))")
            let cut = folder.appendingPathComponent("cut.png")
            try Data(try Data(contentsOf: blank).prefix(120)).write(to: cut)
            #expect(await scanError(cut) == .damagedImage(path: cut.path, kind: "PNG"))
        }
    }

    @Test("an image declaring more pixels than allowed is refused before decoding")
    func decompressionBomb() async throws {
        try await inFolder { folder in
            let bomb = folder.appendingPathComponent("bomb.png")
            try Data(PNGHeader.bytes(width: 100_000, height: 100_000)).write(to: bomb)
            #expect(
                await scanError(bomb)
                    == .imageTooLarge(path: bomb.path, width: 100_000, height: 100_000, limit: 64_000_000))
        }
    }

    @Test("the time limit stops a scan; so does cancelling its task")
    func limits() async throws {
        let set = try GeneratedCards.make(count: 1)
        defer { try? FileManager.default.removeItem(at: set.folder) }
        let photo = set.url(of: set.cards[0])
        let hurried = CardScanner(limits: ScanLimits(timeLimit: 0.001))
        #expect(await scanError(photo, with: hurried) == .timedOut(path: photo.path, seconds: 0.001))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await scanError(photo)
        }
        #expect(await task.value == .cancelled)
    }

    @Test("languages: a list that is no list, and a language without data")
    func languages() async throws {
        #expect(throws: CardScanError.invalidLanguages("eng,kor")) { try OCRLanguages(parsing: "eng,kor") }
        #expect(throws: CardScanError.invalidLanguages("../eng")) { try OCRLanguages(parsing: "../eng") }
        #expect(try OCRLanguages(parsing: "eng+kor+eng").codes == ["eng", "kor"])
        let klingon = CardScanner(languages: try OCRLanguages(parsing: "tlh"))
        let error = #expect(throws: CardScanError.self) { try klingon.prepare() }
        guard case .missingLanguage("tlh", let searched) = error else {
            Issue.record("expected missingLanguage, got \(String(describing: error))")
            return
        }
        #expect(searched.contains("/usr/share/tesseract-ocr/5/tessdata"))
        #expect(error?.description.contains("install tesseract-ocr-tlh") == true)
    }
}

/// The start of a PNG whose header declares a size, with nothing after it.
enum PNGHeader {
    static func bytes(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        let chunk = Array("IHDR".utf8) + be(width) + be(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + chunk + be(crc32(chunk))
    }

    /// The CRC-32 PNG chunks end with.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
