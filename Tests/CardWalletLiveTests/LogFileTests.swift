import Foundation
import TestSupport
import Testing
import TokenStore

@testable import CardWalletLive
@testable import CardWalletUI

/// The log file: 0600 in a 0700 folder, one escaped line per log line, rotated to `.1` past
/// its size limit.
struct LogFileTests {
    static func line(_ id: UInt64, _ text: String) -> LogLine {
        LogLine(
            id: id, time: Date(timeIntervalSince1970: 1_700_000_000.25), kind: .request, method: "GET",
            path: "/v1/cards", text: text)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Under the test runner's umask; under umask 000, in a `cardwallet` process (the umask is
    /// process-wide): `EndToEndTests.tokensLogAndCacheArePrivateUnderUmask000`.
    @Test("The file is created 0600 in a 0700 folder")
    func privateModes() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let directory = StateDirectory(path: folder.path("state/cardwallet"))
        let writer = try LogFileWriter(directory: directory)
        writer.write(Self.line(1, "hello"))
        writer.close()
        #expect(writer.path == folder.path("state/cardwallet/cardwallet.log"))
        #expect(try Self.mode(writer.path) == 0o600)
        #expect(try Self.mode(directory.path) == 0o700)
        #expect(Self.contents(writer.path) == "2023-11-14T22:13:20.250Z → GET /v1/cards hello\n")
    }

    @Test("Lines are one line each, control characters escaped")
    func escaping() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let writer = try LogFileWriter(directory: StateDirectory(path: folder.path))
        writer.write(Self.line(1, "two\nlines \u{1B}[2J"))
        writer.write(text: "note\r\u{202E}")
        writer.close()
        #expect(
            Self.contents(writer.path).split(separator: "\n") == [
                "2023-11-14T22:13:20.250Z → GET /v1/cards two^Jlines ^[[2J",
                "note^M\\u{202E}",
            ])
        var full = Self.line(2, "text")
        full.status = 401
        full.errorCode = "E06"
        full.duration = .milliseconds(12)
        full.bytes = 96
        full.kind = .response
        #expect(LogFileWriter.text(of: full) == "2023-11-14T22:13:20.250Z ← GET /v1/cards 401 E06 12 ms 96 B text")
    }

    @Test("Past the limit the file moves to .1 and a new one starts; the total stays bounded")
    func rotation() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let directory = StateDirectory(path: folder.path)
        let writer = try LogFileWriter(directory: directory, maximumBytes: 1_024)
        let padding = String(repeating: "x", count: 60)
        for id in 1...100 { writer.write(Self.line(UInt64(id), "line \(id) \(padding)")) }
        writer.close()

        let current = Self.contents(writer.path)
        let rotated = Self.contents(writer.rotatedPath)
        #expect(current.utf8.count <= 1_024)
        #expect(rotated.utf8.count <= 1_024)
        #expect(rotated.utf8.count > 1_024 - 120)
        #expect(try Self.mode(writer.rotatedPath) == 0o600)
        #expect(try Self.mode(writer.path) == 0o600)
        // The newest line is last in the current file, and the two files hold consecutive lines.
        #expect(current.hasSuffix("line 100 \(padding)\n"))
        let numbers = (rotated + current).split(separator: "\n").compactMap { line -> Int? in
            line.split(separator: " ").dropFirst(5).first.flatMap { Int($0) }
        }
        #expect(numbers == Array((numbers.first ?? 0)...100))
        #expect(!FileManager.default.fileExists(atPath: writer.path + ".2"))
        #expect(writer.problem == nil)
    }

    @Test("An existing file is appended to and its size counts toward the limit")
    func appendsToExisting() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let directory = StateDirectory(path: folder.path)
        let first = try LogFileWriter(directory: directory, maximumBytes: 1_024)
        first.write(text: String(repeating: "a", count: 1_000))
        first.close()
        let second = try LogFileWriter(directory: directory, maximumBytes: 1_024)
        second.write(text: String(repeating: "b", count: 100))
        second.close()
        #expect(Self.contents(second.rotatedPath) == String(repeating: "a", count: 1_000) + "\n")
        #expect(Self.contents(second.path) == String(repeating: "b", count: 100) + "\n")
    }

    @Test("A log file others can read is refused with the fix in the message")
    func refusesOpenFile() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let path = folder.path("cardwallet.log")
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(throws: TokenStoreError.self) { try LogFileWriter(directory: StateDirectory(path: folder.path)) }
        do {
            _ = try LogFileWriter(directory: StateDirectory(path: folder.path))
        } catch {
            #expect(error.description.contains("chmod 600"))
        }
        #expect(Self.contents(path) == "old\n")
    }

    @Test("Writes after close() do nothing")
    func closed() throws {
        let folder = try TemporaryFolder("live")
        defer { folder.remove() }
        let writer = try LogFileWriter(directory: StateDirectory(path: folder.path))
        writer.close()
        writer.write(text: "late")
        #expect(Self.contents(writer.path) == "")
        #expect(writer.problem == nil)
    }
}
