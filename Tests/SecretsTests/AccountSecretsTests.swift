import CardBackend
import Foundation
import Secrets
import TestSupport
import Testing
import TokenStore

/// Where a login's password goes, and how a plain-text one moves into the keyring.
struct AccountSecretsTests {
    let record = AccountRecord(
        name: "alice@dav.example.com", kind: "cardDAV", server: "https://dav.example.com", user: "alice",
        book: "/alice/contacts/")

    @Test func aKeyringThatAnswersTakesThePassword() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        let keyring = MemorySecretStore()
        let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: [:])
        let kept = try await secrets.keep("pw", for: record, command: nil)
        #expect(kept == AccountSecrets.Kept(location: .keyring, note: nil))
        var stored = record
        stored.secret = kept.location
        #expect(try await secrets.password(for: stored) == "pw")
        #expect(try store.passwords().isEmpty)
        await secrets.forget(stored)
        #expect(keyring.count == 0)
    }

    @Test func withoutAKeyringThePasswordGoesToTheFileWithANote() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        let secrets = AccountSecrets(
            keyring: MemorySecretStore(failingWith: SecretError(.noKeyring, "No keyring answers: no bus.")),
            tokenStore: store, environment: [:])
        let kept = try await secrets.keep("pw", for: record, command: nil)
        #expect(kept.location == .file)
        #expect(kept.note?.contains("plain text") == true)
        #expect(kept.note?.contains("--password-command") == true)
        #expect(try store.password(server: record.server, account: "alice")?.password == "pw")
    }

    @Test func aLockedKeyringNeverFallsBackToTheFile() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        let secrets = AccountSecrets(
            keyring: MemorySecretStore(failingWith: SecretError(.locked, "The keyring is locked.")), tokenStore: store,
            environment: [:])
        let error = await #expect(throws: SecretError.self) { try await secrets.keep("pw", for: record, command: nil) }
        #expect(error?.reason == .locked)
        #expect(try store.passwords().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aPasswordCommandKeepsNothing() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        let keyring = MemorySecretStore()
        let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: ["PATH": "/usr/bin:/bin"])
        let command = PasswordCommand(shell: "echo from-command")
        let kept = try await secrets.keep("from-command", for: record, command: command)
        #expect(kept.location == .command(["/bin/sh", "-c", "echo from-command"]))
        #expect(keyring.count == 0)
        var stored = record
        stored.secret = kept.location
        #expect(try await secrets.password(for: stored) == "from-command")
    }

    @Test func aPlainTextPasswordMovesToTheKeyringOnceOneAnswers() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        var inFile = record
        inFile.secret = .file
        try await store.save(PasswordItem(server: record.server, account: "alice", password: "pw", place: record.book))
        try await store.saveAccount(inFile, makeDefault: true)

        // No keyring: it stays.
        let none = AccountSecrets(
            keyring: MemorySecretStore(failingWith: SecretError(.noKeyring, "none")), tokenStore: store,
            environment: [:])
        #expect(try await none.password(for: inFile) == "pw")
        #expect(try store.accountRecord(named: record.name)?.secret == .file)

        // A keyring refusing to store: it stays.
        let keyring = MemorySecretStore()
        let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: [:])
        #expect(try await secrets.password(for: inFile) == "pw")
        #expect(try store.accountRecord(named: record.name)?.secret == .keyring)
        #expect(try store.passwords().isEmpty)
        #expect(try await keyring.secret(for: AccountSecrets.key(of: inFile)) == "pw")
        // The book and the default are kept.
        #expect(try store.defaultAccountRecord()?.book == "/alice/contacts/")
    }

    @Test func nothingKeptAsksForALogin() async throws {
        let folder = try TemporaryFolder("secrets")
        defer { folder.remove() }
        let secrets = AccountSecrets(
            keyring: MemorySecretStore(), tokenStore: TokenStore(path: folder.path("t.json")), environment: [:])
        var inKeyring = record
        inKeyring.secret = .keyring
        let error = await #expect(throws: SecretError.self) { try await secrets.password(for: inKeyring) }
        #expect(error?.failureKind == .notLoggedIn)
    }
}
