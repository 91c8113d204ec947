import CardScanCore
import Foundation

/// Where Tesseract's trained data (`eng.traineddata`, …) is found.
enum TessData {
    /// The folders looked in, in order: `$TESSDATA_PREFIX` (the folder itself, as Tesseract 4
    /// and 5 read it), then Debian's (tesseract-ocr-eng and friends install into
    /// `/usr/share/tesseract-ocr/5/tessdata` on Debian 12 and `…/4.00/tessdata` before), then
    /// the usual places of other builds.
    static func folders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders: [String] = []
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            folders.append(prefix)
        }
        folders += [
            "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
            "/usr/share/tessdata", "/usr/local/share/tessdata",
        ]
        return folders
    }

    /// The first folder holding every language's `.traineddata`.
    ///
    /// - Throws: ``CardScanError/missingLanguage(_:searched:)`` naming the first language no
    ///   folder has, so the message can say which package to install.
    static func folder(
        for languages: OCRLanguages, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CardScanError) -> String {
        let candidates = folders(environment: environment)
        let files = FileManager.default
        if let found = candidates.first(where: { folder in
            languages.codes.allSatisfy { files.isReadableFile(atPath: folder + "/" + $0 + ".traineddata") }
        }) {
            return found
        }
        let missing = languages.codes.first { code in
            !candidates.contains { files.isReadableFile(atPath: $0 + "/" + code + ".traineddata") }
        }
        throw .missingLanguage(missing ?? languages.tesseractName, searched: candidates)
    }
}
