import Foundation
import Testing

@testable import TokenStore

@Suite("Error messages")
struct ErrorTextTests {
    static let path = "/home/u/.local/state/cardwallet/tokens.json"

    @Test(
        "Every error names what to do and never a token",
        arguments: [
            TokenStoreError.unreadable(path: path, reason: .notJSON),
            .unreadable(path: path, reason: .unsupportedVersion(3)),
            .unreadable(path: path, reason: .cannotRead(errno: 13)),
            .fileTooOpen(path: path, mode: 0o644),
            .fileNotOwned(path: path, mode: 0o600, owner: 65534, user: 1000),
            .notARegularFile(path: path, kind: "a symbolic link"),
            .unsafeFolder(path: "/tmp", mode: 0o1777, owner: 0, user: 0),
            .unsafeFolder(path: "/srv", mode: 0o755, owner: 0, user: 1000),
            .noStateLocation,
            .lockTimedOut(path: path + ".lock", timeout: .seconds(30)),
            .lockReleased(path: path + ".lock"),
            .invalidItem(reason: "the server is empty"),
            .systemCallFailed(operation: "create the folder", path: "/x", errno: 28),
        ])
    func actionable(error: TokenStoreError) {
        let text = error.description
        #expect(!text.isEmpty)
        #expect(error.errorDescription == text)
        #expect(!text.contains(Samples.canary))
        #expect(!text.contains("\n"))
    }

    @Test("OpenSSH-style texts for unsafe files")
    func unsafeTexts() {
        #expect(
            TokenStoreError.fileTooOpen(path: Self.path, mode: 0o644).description == """
                \(Self.path) has mode 0644, so other users can read or change it; cardwallet refuses to use it. \
                It must be private to you: chmod 600 \(Self.path)
                """)
        #expect(
            TokenStoreError.unsafeFolder(path: "/tmp", mode: 0o1777, owner: 0, user: 0).description
                .contains("has mode 1777"))
        #expect(
            TokenStoreError.unreadable(path: Self.path, reason: .unsupportedVersion(3)).description
                .contains("format version 3 was written by a newer cardwallet"))
        #expect(TokenStoreError.lockTimedOut(path: "/l", timeout: .seconds(30)).description.contains("30 seconds"))
        #expect(
            TokenStoreError.systemCallFailed(operation: "create the folder", path: "/x", errno: 28).description
                == "cannot create the folder /x: No space left on device")
    }

    @Test("Paths are quoted for the shell in fixes, and control characters are escaped")
    func quoting() {
        let spaced = "/home/u/My State/tokens.json"
        #expect(TokenStoreError.fileTooOpen(path: spaced, mode: 0o644).description.hasSuffix("chmod 600 '\(spaced)'"))
        let quote = "/tmp/it's/tokens.json"
        #expect(Quoting.shell(quote) == #"'/tmp/it'\''s/tokens.json'"#)
        let hostile = "/tmp/\u{1B}]0;owned\u{07}/tokens.json"
        let text = TokenStoreError.fileTooOpen(path: hostile, mode: 0o644).description
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(Quoting.octal(0o600) == "0600")
        #expect(Quoting.octal(0o1777) == "1777")
        #expect(Quoting.seconds(.milliseconds(1500)) == "1.5 seconds")
        #expect(Quoting.seconds(.seconds(1)) == "1 second")
    }
}
