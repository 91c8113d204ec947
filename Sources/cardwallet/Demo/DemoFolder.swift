import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The demo's private token folder: `$TMPDIR/cardwallet-demo-XXXXXX` (mode `0700`, made by
/// `mkdtemp`), removed when the demo ends. Demo tokens never touch the user's token file.
struct DemoFolder {
    /// The folder's path.
    let path: String

    /// The token file's path in it.
    var tokenFilePath: String { path + "/tokens.json" }

    /// Creates a new folder.
    ///
    /// - Throws: ``DemoError/cannotCreateFolder(_:)`` when the temporary folder is not writable.
    static func create(environment: [String: String] = ProcessInfo.processInfo.environment) throws(DemoError)
        -> DemoFolder
    {
        var base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/cardwallet-demo-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
        }
        guard made else {
            throw .cannotCreateFolder("\(base): \(String(cString: strerror(errno)))")
        }
        let bytes = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return DemoFolder(path: String(decoding: bytes, as: UTF8.self))
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Why the demo could not start.
enum DemoError: Error, CustomStringConvertible {
    /// The private token folder could not be made.
    case cannotCreateFolder(String)

    var description: String {
        switch self {
        case .cannotCreateFolder(let reason):
            "cannot create a private folder for the demo's tokens in \(reason). Set TMPDIR to a writable folder."
        }
    }
}
