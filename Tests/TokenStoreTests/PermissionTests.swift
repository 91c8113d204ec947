import Foundation
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's user, and another one the tests pretend to be.
private let me = UInt32(geteuid())
private let someoneElse: UInt32 = me == 65534 ? 65533 : 65534

@Suite("Modes, owners and unsafe files")
struct PermissionTests {
    @Test("A new store: folders 0700, token and lock files 0600")
    func modesOnCreation() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("a/b/tokens.json"))
        try await store.save(Samples.item())
        #expect(try permissions(folder.path("a")) == 0o700)
        #expect(try permissions(folder.path("a/b")) == 0o700)
        #expect(try permissions(store.path) == 0o600)
        #expect(try permissions(store.lockPath) == 0o600)
    }

    /// umask is process-wide, so it is changed in a child process, never in the test process
    /// (other suites, and other targets' tests, create files concurrently).
    @Test("Modes stay 0700/0600 under umask 000, 022 and 777", arguments: ["000", "777", "022"])
    func modesUnderUmask(mask: String) async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let path = folder.path("state/deeper/tokens.json")
        _ = try await StressTool.run(["umask-save", mask, path])
        #expect(try permissions(folder.path("state")) == 0o700)
        #expect(try permissions(folder.path("state/deeper")) == 0o700)
        #expect(try permissions(path) == 0o600)
        #expect(try permissions(path + ".lock") == 0o600)
        #expect(try permissions(folder.path("state/deeper/cardwallet.log")) == 0o600)
        #expect(try TokenStore(path: path).items().count == 1)
    }

    @Test(
        "A group- or world-accessible file is refused, naming path, mode and fix",
        arguments: [0o644, 0o640, 0o604, 0o660, 0o666])
    func tooOpen(mode: Int) async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        try #require(chmod(store.path, mode_t(mode)) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))

        let error = try #require(throws: TokenStoreError.self) { try store.items() }
        #expect(error == .fileTooOpen(path: store.path, mode: UInt32(mode)))
        let text = error.description
        #expect(text.contains(store.path))
        #expect(text.contains(Quoting.octal(UInt32(mode))))
        #expect(text.contains("chmod 600 \(store.path)"))

        // Changes are refused too, and leave the file as it was.
        await #expect(throws: TokenStoreError.fileTooOpen(path: store.path, mode: UInt32(mode))) {
            try await store.save(Samples.item(generation: 2))
        }
        await #expect(throws: TokenStoreError.self) { try await store.deleteAll() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        #expect(try permissions(store.path) == UInt32(mode))

        // The suggested fix works.
        try #require(chmod(store.path, 0o600) == 0)
        #expect(try store.items().count == 1)
    }

    @Test("A stricter owner-only mode (0400) is accepted")
    func readOnlyForOwner() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        try #require(chmod(store.path, 0o400) == 0)
        #expect(try store.items().count == 1)
        try await store.save(Samples.item(generation: 2))  // replaced by rename: a fresh 0600 file
        #expect(try permissions(store.path) == 0o600)
    }

    /// The store seen as a user its files do not belong to (injected, so it runs as any user,
    /// root or not, without `chown`).
    @Test("A file owned by another user is refused")
    func otherOwner() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        let status = try #require(try POSIX.status(atPath: store.path, followLinks: false))
        let error = try #require(throws: TokenStoreError.self) {
            try FileSafety.checkPrivateFile(status, path: store.path, user: someoneElse)
        }
        #expect(error == .fileNotOwned(path: store.path, mode: 0o600, owner: me, user: someoneElse))
        #expect(error.description.contains(store.path))
        #expect(error.description.contains("0600"))
        #expect(error.description.contains("uid \(me)"))
        #expect(error.description.contains("chmod 600"))
        // That user's store neither reads nor changes anything.
        let theirs = TokenStore(path: store.path, user: someoneElse)
        #expect(throws: TokenStoreError.self) { try theirs.items() }
        await #expect(throws: TokenStoreError.self) { try await theirs.save(Samples.item(), replacingCorrupt: true) }
        #expect(try store.items() == [Samples.item()])
    }

    @Test("A folder owned by another user is refused")
    func otherOwnerFolder() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        let theirs = TokenStore(path: store.path, user: someoneElse)
        #expect(throws: TokenStoreError.unsafeFolder(path: store.folderPath, mode: 0o700, owner: me, user: someoneElse))
        {
            try theirs.items()
        }
        #expect(throws: TokenStoreError.unsafeFolder(path: store.folderPath, mode: 0o700, owner: me, user: someoneElse))
        {
            try theirs.checkSafety()
        }
    }

    @Test("A folder others can write to is refused; one they can only read is accepted")
    func folderModes() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        try #require(chmod(store.folderPath, 0o777) == 0)
        let error = try #require(throws: TokenStoreError.self) { try store.items() }
        #expect(error == .unsafeFolder(path: store.folderPath, mode: 0o777, owner: geteuid(), user: geteuid()))
        #expect(error.description.contains("chmod 700 \(store.folderPath)"))
        await #expect(throws: TokenStoreError.self) { try await store.save(Samples.item()) }

        try #require(chmod(store.folderPath, 0o755) == 0)
        #expect(try store.items().count == 1)
        try await store.save(Samples.item(generation: 2))
    }

    @Test("A symbolic link, a folder or a FIFO at the file's path is refused")
    func notRegularFiles() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        let real = folder.path("elsewhere.json")
        try FileManager.default.moveItem(atPath: store.path, toPath: real)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: real)
        #expect(throws: TokenStoreError.notARegularFile(path: store.path, kind: "a symbolic link")) {
            try store.items()
        }
        await #expect(throws: TokenStoreError.self) { try await store.save(Samples.item(), replacingCorrupt: true) }

        try FileManager.default.removeItem(atPath: store.path)
        try #require(mkdir(store.path, 0o700) == 0)
        #expect(throws: TokenStoreError.notARegularFile(path: store.path, kind: "a folder")) { try store.items() }

        try FileManager.default.removeItem(atPath: store.path)
        try #require(mkfifo(store.path, 0o600) == 0)
        #expect(throws: TokenStoreError.notARegularFile(path: store.path, kind: "a special file")) { try store.items() }
    }

    @Test("The state folder helper opens the log file 0600 and refuses an unsafe one")
    func privateLogFile() throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let state = StateDirectory(path: folder.path("state/cardwallet"))
        let log = state.filePath(named: "cardwallet.log")
        do {
            let handle = try state.openPrivateFile(named: "cardwallet.log")
            try handle.write(contentsOf: Data("one\n".utf8))
        }
        do {
            let handle = try state.openPrivateFile(named: "cardwallet.log")
            try handle.write(contentsOf: Data("two\n".utf8))
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "one\ntwo\n")
        #expect(try permissions(state.path) == 0o700)
        #expect(try permissions(log) == 0o600)

        do {
            let handle = try state.openPrivateFile(named: "cardwallet.log", mode: .truncate)
            try handle.write(contentsOf: Data("fresh\n".utf8))
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "fresh\n")

        try #require(chmod(log, 0o644) == 0)
        #expect(throws: TokenStoreError.fileTooOpen(path: log, mode: 0o644)) {
            try state.openPrivateFile(named: "cardwallet.log", mode: .truncate)
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "fresh\n")  // not truncated

        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: folder.path("target"))
        #expect(throws: TokenStoreError.notARegularFile(path: log, kind: "a symbolic link")) {
            try state.openPrivateFile(named: "cardwallet.log")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("target")))
    }
}
