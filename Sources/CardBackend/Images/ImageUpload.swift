public import CardModels
public import Foundation

/// An image file checked before upload: it exists, is a readable regular file (or a symbolic
/// link to one), starts like a PNG or JPEG, and is no larger than the limit. Only its first bytes are read here; the
/// upload streams it from disk.
///
/// ```swift
/// let image = try ImageUpload(validating: URL(filePath: "ada.png"))   // nothing is sent yet
/// let card = try await backend.create(fields, image: image, key: key)
/// ```
public struct ImageUpload: Sendable, Hashable {
    /// The file.
    public let url: URL
    /// Its format, from its first bytes.
    public let format: CardImageFormat
    /// Its size in bytes when checked.
    public let byteCount: Int

    /// Checks the file at `url`.
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - maximumBytes: the largest size allowed (the server's limit, 2 MiB, by default).
    /// - Throws: ``ImageUploadError`` naming the file and the problem.
    public init(validating url: URL, maximumBytes: Int = CardLimits.imageMaxBytes) throws(ImageUploadError) {
        let path = url.path(percentEncoded: false)
        func fail(_ problem: ImageProblem) -> ImageUploadError { ImageUploadError(path: path, problem: problem) }

        let attributes: [FileAttributeKey: Any]
        do {
            // A symbolic link to an image is fine: judge the file it leads to.
            attributes = try FileManager.default.attributesOfItem(
                atPath: url.resolvingSymlinksInPath().path(percentEncoded: false))
        } catch {
            throw fail(FileManager.default.fileExists(atPath: path) ? .unreadable : .missing)
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?: break
        case .typeSymbolicLink?: throw fail(.missing)  // a link whose target is gone
        default: throw fail(.notAFile)
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else { throw fail(.empty) }
        guard size <= maximumBytes else { throw fail(.tooLarge(bytes: size, limit: maximumBytes)) }

        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 8) ?? Data()
        } catch {
            throw fail(.unreadable)
        }
        guard let format = CardImageFormat(sniffing: head) else { throw fail(.notPNGOrJPEG) }
        self.url = url
        self.format = format
        self.byteCount = size
    }
}

/// An image file that cannot be uploaded, found before anything was sent.
public struct ImageUploadError: BackendFailure, Equatable {
    /// The file as given.
    public var path: String
    /// What is wrong with it.
    public var problem: ImageProblem

    /// An error.
    public init(path: String, problem: ImageProblem) {
        self.path = path
        self.problem = problem
    }

    public var failureKind: BackendFailureKind { .localImage(problem: problem) }

    /// `Cannot upload photo.png: there is no such file. Choose a PNG or JPEG file of at most 2.0 MiB; nothing was sent.`
    public var description: String {
        let shown = path.count > 200 ? String(path.prefix(200)) + "…" : path
        return "Cannot upload \(TerminalText.escaped(shown)): \(problem). Choose a PNG or JPEG file "
            + "of at most \(ByteText.format(CardLimits.imageMaxBytes)); nothing was sent."
    }
}

/// Why an image file cannot be uploaded.
public enum ImageProblem: Sendable, Hashable, CustomStringConvertible {
    /// There is no file at the path.
    case missing
    /// The path is a folder or something else that is not a regular file.
    case notAFile
    /// The file cannot be read (permissions, I/O error).
    case unreadable
    /// The file is empty.
    case empty
    /// The file is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// The file does not start like a PNG or a JPEG.
    case notPNGOrJPEG

    /// A short phrase, e.g. `there is no such file`.
    public var description: String {
        switch self {
        case .missing: "there is no such file"
        case .notAFile: "it is not a regular file"
        case .unreadable: "it cannot be read (check its permissions)"
        case .empty: "the file is empty"
        case .tooLarge(let bytes, let limit):
            "it is \(ByteText.format(bytes)), more than the \(ByteText.format(limit)) a card image may be"
        case .notPNGOrJPEG: "it is not a PNG or JPEG image (its first bytes say so, whatever its name)"
        }
    }
}

/// Byte counts for people: `512 B`, `1.5 KiB`, `2.0 MiB`.
package enum ByteText {
    /// `bytes` for people.
    package static func format(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / (1024 * 1024))
    }
}
