import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

@testable import cardwallet

#if canImport(Glibc)
    import Glibc
#endif

/// The password prompt on a real pseudo-terminal: nothing echoed, line editing, and the
/// terminal's modes restored on every way out.
/// Serialized: the prompt installs process-wide signal handlers while it reads.
@Suite(.serialized) struct TerminalPromptTests {
    /// Starts `readSecret` on the slave side, waits until echo is off, types `keys`, and
    /// returns the outcome with everything the terminal showed.
    func secret(typing keys: String) async throws -> (
        result: Result<String, PromptError>, shown: String, pty: PseudoTerminal
    ) {
        let pty = try PseudoTerminal()
        #expect(pty.echoes)
        let before = pty.localModes
        let slave = pty.slave
        async let outcome = onThread { () -> Result<String, PromptError> in
            do throws(PromptError) {
                return .success(try TerminalPrompt(fileDescriptor: slave).readSecret(prompt: "Password: "))
            } catch {
                return .failure(error)
            }
        }
        do {
            try await waitUntil("echo off") { !pty.echoes }
        } catch {
            pty.type("\u{03}")  // unblock the reader before failing
            _ = await outcome
            throw error
        }
        pty.type(keys)
        let result = await outcome
        #expect(pty.localModes == before, "the terminal's modes are restored")
        return (result, pty.drain(), pty)
    }

    @Test func aPasswordIsReadWithoutEcho() async throws {
        let (result, shown, _) = try await secret(typing: "s3cr\u{7F}et pass\r")
        #expect(try result.get() == "s3cet pass")
        #expect(shown.hasPrefix("Password: "))
        #expect(!shown.contains("s3c") && !shown.contains("pass\r") && !shown.contains("*"))
    }

    @Test func backspaceRemovesAWholeCharacterAndControlKeysAreIgnored() async throws {
        #expect(try await secret(typing: "aé\u{7F}b\u{1B}[Dc\u{1B}OA\u{01}\n").result.get() == "abc")
        #expect(try await secret(typing: "wrong\u{15}right\r").result.get() == "right")
        #expect(try await secret(typing: "한국어\r").result.get() == "한국어")
    }

    @Test func controlCCancelsAndRestoresTheTerminal() async throws {
        let (result, _, pty) = try await secret(typing: "half\u{03}")
        #expect(throws: PromptError.cancelled) { try result.get() }
        #expect(pty.echoes)
        #expect(pty.localModes & tcflag_t(ICANON | ISIG) == tcflag_t(ICANON | ISIG))
    }

    @Test func controlDOnAnEmptyLineCancels() async throws {
        let empty = try await secret(typing: "\u{04}").result
        #expect(throws: PromptError.cancelled) { try empty.get() }
        #expect(try await secret(typing: "ab\u{04}c\r").result.get() == "abc")
    }

    @Test func linesAndConfirmationsAreReadWithEcho() async throws {
        let pty = try PseudoTerminal()
        let prompt = TerminalPrompt(fileDescriptor: pty.slave)
        pty.type("ada@example.com\n")
        #expect(try prompt.readLine(prompt: "Email: ") == "ada@example.com")
        pty.type(" Yes \n")
        #expect(try prompt.confirm("Delete?"))
        pty.type("n\n")
        #expect(try !prompt.confirm("Delete?"))
        pty.type("\n")
        #expect(try !prompt.confirm("Delete?"))
        let shown = pty.drain()
        #expect(shown.contains("Email: ") && shown.contains("Delete? [y/N] "))
    }

    @Test func deleteLastCharacterRemovesOneUTF8Scalar() {
        var bytes = Array("a€".utf8)
        TerminalPrompt.deleteLastCharacter(&bytes)
        #expect(bytes == Array("a".utf8))
        TerminalPrompt.deleteLastCharacter(&bytes)
        TerminalPrompt.deleteLastCharacter(&bytes)
        #expect(bytes.isEmpty)
    }
}
