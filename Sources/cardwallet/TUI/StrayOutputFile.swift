import Foundation
import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cardwallet.stderr.log`: where writes to standard output and error go while the interface
/// owns the screen (a library's warning, a runtime error message before a crash).
enum StrayOutputFile {
    /// The file's name in the state folder.
    static let fileName = "cardwallet.stderr.log"
    /// Past this size the previous file is moved to `.1` when the app starts.
    static let maximumBytes = 256 * 1024

    /// Makes sure the file is safe to append to (`0600`, yours, in a `0700` folder) and not
    /// too large, and returns its path.
    ///
    /// - Throws: ``TokenStore/TokenStoreError`` when the folder or file is unsafe.
    static func prepare(in directory: StateDirectory) throws(TokenStoreError) -> String {
        let path = directory.filePath(named: fileName)
        let handle = try directory.openPrivateFile(named: fileName, mode: .append)
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.close()
        if size > maximumBytes {
            _ = rename(path, path + ".1")
            try? directory.openPrivateFile(named: fileName, mode: .truncate).close()
        }
        return path
    }
}
