import CardBackend
import Foundation
import Secrets
import Testing
import TokenStore

/// Password commands: the first line of what they print, and a clear failure that never shows it.
struct PasswordCommandTests {
    let environment = ["PATH": "/usr/bin:/bin"]

    @Test func theFirstLineIsThePassword() async throws {
        let command = PasswordCommand(shell: "printf 'hunter2\\nsecond line\\n'")
        #expect(try await command.password(environment: environment) == "hunter2")
        #expect(command.description == "printf 'hunter2\\nsecond line\\n'")
        // An argument vector runs as it is, found on PATH; a CRLF line end is dropped.
        #expect(
            try await PasswordCommand(arguments: ["printf", "p w\r\n"]).password(environment: environment) == "p w")
        // Spaces inside a password are kept.
        #expect(
            try await PasswordCommand(shell: "echo '  two  words '").password(environment: environment)
                == "  two  words ")
    }

    @Test func aFailingCommandIsNamedAndItsOutputNeverShown() async throws {
        let command = PasswordCommand(shell: "echo leaked-secret; exit 3")
        let error = await #expect(throws: SecretError.self) { try await command.password(environment: environment) }
        #expect(error?.reason == .command)
        #expect(error?.description.contains("exit status 3") == true)
        #expect(error?.description.contains("echo leaked-secret; exit 3") == true)
        #expect(error?.description.contains("leaked-secret\n") == false)
        #expect(error?.failureKind == .loginRequired)
    }

    @Test func aCommandThatPrintsNothingFails() async throws {
        for line in ["true", "printf '\\n'"] {
            let error = await #expect(throws: SecretError.self) {
                try await PasswordCommand(shell: line).password(environment: environment)
            }
            #expect(error?.description.contains("printed no password") == true)
        }
    }

    @Test func aCommandThatHangsIsStoppedWithItsChildren() async throws {
        let marker = "cardwallet-hang-\(UUID().uuidString.prefix(8))"
        let command = PasswordCommand(shell: "sleep 30 # \(marker)", timeout: .milliseconds(300))
        let started = ContinuousClock.now
        let error = await #expect(throws: SecretError.self) { try await command.password(environment: environment) }
        #expect(error?.description.contains("did not finish within") == true)
        #expect(ContinuousClock.now - started < .seconds(10))
        // The shell and its sleep are gone (the whole process group was killed).
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-eo", "args"]
        let pipe = Pipe()
        ps.standardOutput = pipe
        try ps.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        #expect(!listing.contains(marker))
    }

    @Test func aCommandThatCannotStartSaysSo() async throws {
        let error = await #expect(throws: SecretError.self) {
            try await PasswordCommand(arguments: ["/nonexistent/pass", "show"]).password(environment: environment)
        }
        #expect(error?.description.contains("could not be started") == true)
    }
}
