import Foundation
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `checkSafety()`: what a login asks before sending a password, and what `status` shows.
@Suite("Safety check without reading")
struct SafetyCheckTests {
    @Test("A missing folder or file, a private file and even a corrupt one pass")
    func passes() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try store.checkSafety()  // no folder yet
        try await store.save(Samples.item())
        try store.checkSafety()
        try writeRaw(Data("{garbage".utf8), to: store.path)
        try store.checkSafety()  // only the contents are wrong: a login may replace them
    }

    @Test("An open file, an open lock file, a symbolic link or an open folder fail as every operation does")
    func failures() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())

        try #require(chmod(store.path, 0o644) == 0)
        #expect(throws: TokenStoreError.fileTooOpen(path: store.path, mode: 0o644)) { try store.checkSafety() }
        #expect(throws: TokenStoreError.fileTooOpen(path: store.path, mode: 0o644)) { try store.items() }
        try #require(chmod(store.path, 0o600) == 0)

        try #require(chmod(store.lockPath, 0o666) == 0)
        #expect(throws: TokenStoreError.fileTooOpen(path: store.lockPath, mode: 0o666)) { try store.checkSafety() }
        try #require(chmod(store.lockPath, 0o600) == 0)

        let real = folder.path("elsewhere.json")
        try FileManager.default.moveItem(atPath: store.path, toPath: real)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: real)
        #expect(throws: TokenStoreError.notARegularFile(path: store.path, kind: "a symbolic link")) {
            try store.checkSafety()
        }
        try FileManager.default.removeItem(atPath: store.path)

        try #require(chmod(store.folderPath, 0o777) == 0)
        let me = UInt32(geteuid())
        #expect(throws: TokenStoreError.unsafeFolder(path: store.folderPath, mode: 0o777, owner: me, user: me)) {
            try store.checkSafety()
        }
        try #require(chmod(store.folderPath, 0o700) == 0)
        try store.checkSafety()
    }

    @Test("The status line names what is at the path instead of calling a link a plain file")
    func summaryOfALink() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        let real = folder.path("elsewhere.json")
        try FileManager.default.moveItem(atPath: store.path, toPath: real)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: real)
        let summary = store.storageSummary()
        #expect(summary.hasPrefix("no usable token file: \(store.path) is a symbolic link, not a regular file"))
        #expect(!summary.contains("mode 0777"))  // a link's own mode means nothing

        try FileManager.default.removeItem(atPath: store.path)
        try #require(chmod(store.folderPath, 0o777) == 0)
        defer { chmod(store.folderPath, 0o700) }
        let missing = store.storageSummary()
        #expect(missing.hasPrefix("no tokens stored; they would be kept in \(store.path)"))
        #expect(missing.contains("it will be refused: folder \(store.folderPath) has mode 0777"))
    }
}
