/// Why a photo could not be scanned. Each case says what a person can do about it.
public enum CardScanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not a PNG or JPEG image (`reason` says what it is instead, when known).
    case notAnImage(path: String, reason: String)
    /// The file starts like a PNG or JPEG but cannot be decoded.
    case damagedImage(path: String, kind: String)
    /// The file is larger than the scanner reads.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The image declares more pixels than the scanner decodes.
    case imageTooLarge(path: String, width: Int, height: Int, limit: Int)
    /// The OCR found no text on the photo.
    case noText(path: String)
    /// The OCR did not finish within the time limit.
    case timedOut(path: String, seconds: Double)
    /// The scan was cancelled.
    case cancelled
    /// The language list is not `eng`, `kor` or `eng+kor` style text.
    case invalidLanguages(String)
    /// Tesseract has no trained data for a language.
    case missingLanguage(String, searched: [String])
    /// Tesseract itself failed (it could not start, or refused the image).
    case engineFailed(String)
    /// The OCR library (`libtesseract.so.5`) could not be loaded: it is not installed, or
    /// lacks a function the scanner calls (`reason` is the system loader's).
    case ocrLibraryMissing(library: String, reason: String)

    /// One sentence for a person, naming the photo.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file."
        case .unreadable(let path, let reason):
            "\(path): cannot be read (\(reason))."
        case .notAnImage(let path, let reason):
            "\(path) is not a photo to scan: \(reason). Give a PNG or JPEG photo of a card."
        case .damagedImage(let path, let kind):
            "\(path) starts like a \(kind) image but cannot be decoded: it is damaged or cut short."
        case .fileTooLarge(let path, let bytes, let limit):
            "\(path) is \(Self.megabytes(bytes)); photos of up to \(Self.megabytes(limit)) are scanned."
        case .imageTooLarge(let path, let width, let height, let limit):
            "\(path) is \(width)×\(height) pixels; photos of up to \(limit / 1_000_000) megapixels are scanned."
        case .noText(let path):
            "No text found on \(path): is it a card, in focus, lit and not too small in the frame?"
        case .timedOut(let path, let seconds):
            "Reading \(path) took longer than \(Self.seconds(seconds)); it was stopped. A smaller or sharper photo is faster."
        case .cancelled:
            "The scan was cancelled."
        case .invalidLanguages(let text):
            "\(text) is not a language list: use Tesseract's codes joined with +, e.g. eng, kor or eng+kor."
        case .missingLanguage(let language, let searched):
            "Tesseract has no data for \(language) (looked in \(searched.joined(separator: ", "))): "
                + "install tesseract-ocr-\(language), or set TESSDATA_PREFIX to the folder holding \(language).traineddata."
        case .engineFailed(let reason):
            "Tesseract failed: \(reason)."
        case .ocrLibraryMissing(let library, let reason):
            "The OCR library \(library) could not be loaded (\(reason)): install it with "
                + "apt-get install libtesseract5, or your system's tesseract package."
        }
    }

    /// Whether the problem is the photo itself (as opposed to the machine or the options).
    public var isAboutThePhoto: Bool {
        switch self {
        case .fileNotFound, .unreadable, .notAnImage, .damagedImage, .fileTooLarge, .imageTooLarge, .noText, .timedOut:
            true
        case .cancelled, .invalidLanguages, .missingLanguage, .engineFailed, .ocrLibraryMissing:
            false
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = bytes * 10 / 1_048_576
        return bytes >= 1_048_576 ? "\(tenths / 10).\(tenths % 10) MiB" : "\(bytes) bytes"
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The bounds of one scan: what is read, decoded, and for how long.
public struct ScanLimits: Sendable, Equatable {
    /// The largest file read: 50 MiB.
    public var maximumFileBytes: Int
    /// The most pixels decoded: 64 megapixels (a phone's full-resolution photo is 12–50).
    public var maximumPixels: Int
    /// The longest the OCR may take on one photo, in seconds.
    public var timeLimit: Double

    /// The default limits: 50 MiB, 64 megapixels, 10 seconds.
    public init(maximumFileBytes: Int = 50 * 1_048_576, maximumPixels: Int = 64_000_000, timeLimit: Double = 10) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumPixels = maximumPixels
        self.timeLimit = timeLimit
    }
}
