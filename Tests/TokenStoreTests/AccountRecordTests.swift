import Foundation
import TestSupport
import Testing

@testable import TokenStore

/// The accounts the wallet remembers (format version 3), and files of versions 1 and 2 — written
/// by the cardwallet before accounts, kept as fixtures — migrated without loss.
@Suite("Account records")
struct AccountRecordTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    /// A store holding the fixture `name` as its file.
    static func store(withFixture name: String, in folder: TemporaryFolder) throws -> TokenStore {
        let store = folder.store()
        try writeRaw(Data(contentsOf: fixtures.appending(path: name)), to: store.path)
        return store
    }

    @Test("A version 1 file becomes one card API account, its tokens untouched")
    func versionOneIsMigrated() async throws {
        let folder = try TemporaryFolder("records")
        defer { folder.remove() }
        let store = try Self.store(withFixture: "tokens-v1.json", in: folder)
        let before = try store.items()

        let records = try store.accountRecords()
        #expect(
            records == [
                AccountRecord(
                    name: "demo@cardwallet.dev", kind: "cardAPI", server: "http://127.0.0.1:46755/v1",
                    user: "demo@cardwallet.dev")
            ])
        #expect(try store.defaultAccountRecord() == records.first, "the only account is the default")

        // Any write keeps it as a record of a version 3 file; nothing of the tokens is lost.
        try await store.setDefaultAccount(named: "demo@cardwallet.dev")
        #expect(try CredentialsTests.version(of: store) == 3)
        #expect(try store.items() == before)
        #expect(try store.accountRecords() == records)
    }

    @Test("A version 2 file becomes a card API account and a CardDAV account whose password is in the file")
    func versionTwoIsMigrated() async throws {
        let folder = try TemporaryFolder("records")
        defer { folder.remove() }
        let store = try Self.store(withFixture: "tokens-v2.json", in: folder)
        let tokens = try store.items()
        let passwords = try store.passwords()
        #expect(tokens.count == 1)
        #expect(passwords.map(\.account) == ["alice"])

        let records = try store.accountRecords()
        #expect(records.map(\.name) == ["alice@127.0.0.1", "demo@cardwallet.dev"])
        let dav = try #require(records.first { $0.kind == "cardDAV" })
        #expect(dav.server == passwords[0].server)
        #expect(dav.user == "alice")
        #expect(dav.book == "/alice/contacts/")
        #expect(dav.secret == .file)
        #expect(records.first { $0.kind == "cardAPI" }?.server == tokens[0].server)
        // Two accounts from a file with no default: none is, until one is chosen.
        #expect(try store.defaultAccountRecord() == nil)

        try await store.setDefaultAccount(named: "alice@127.0.0.1")
        #expect(try CredentialsTests.version(of: store) == 3)
        #expect(try store.defaultAccountRecord() == dav)
        #expect(try store.items() == tokens)
        #expect(try store.passwords() == passwords)
        #expect(try store.accountRecords() == records)
    }

    @Test("Accounts are kept side by side; a login replaces its own record and becomes the default")
    func recordsLiveSideBySide() async throws {
        let folder = try TemporaryFolder("records")
        defer { folder.remove() }
        let store = folder.store()
        let ann = AccountRecord(name: "ann", kind: "cardAPI", server: "http://127.0.0.1:8080/v1/", user: "Ann@x.dev")
        let bob = AccountRecord(name: "bob", kind: "cardAPI", server: "http://127.0.0.1:8080/v1", user: "bob@x.dev")
        let dav = AccountRecord(
            name: "work", kind: "cardDAV", server: "https://dav.example.com", user: "alice", book: "/alice/work/",
            bookName: "Work", secret: .command(["pass", "show", "dav/alice"]))
        try await store.saveAccount(ann, makeDefault: false)
        #expect(try store.defaultAccountRecord() == ann, "the first account is the default")
        try await store.saveAccount(bob, makeDefault: true)
        try await store.saveAccount(dav, makeDefault: false)
        #expect(try store.accountRecords().map(\.name) == ["ann", "bob", "work"])
        #expect(try store.defaultAccountRecord() == bob)
        #expect(ann.server == "http://127.0.0.1:8080/v1")
        #expect(ann.matches(server: "http://127.0.0.1:8080/v1", user: "ann@x.dev"))
        #expect(try store.accountRecord(named: "WORK") == dav)

        // The same server and user again (a new login): replaced, not added.
        var again = ann
        again.name = "ann again"
        try await store.saveAccount(again, makeDefault: true)
        #expect(try store.accountRecords().map(\.name) == ["ann again", "bob", "work"])
        #expect(try store.defaultAccountRecord()?.name == "ann again")

        // Forgetting the default one makes the first remaining one the default, and takes its
        // tokens and password with it; the others keep theirs.
        try await store.save(Samples.item(server: "http://127.0.0.1:8080/v1", account: "ann@x.dev"))
        try await store.save(Samples.item(server: "http://127.0.0.1:8080/v1", account: "bob@x.dev"))
        let (removed, newDefault) = try await store.removeAccount(named: "ann again")
        #expect(removed?.user == "Ann@x.dev", "kept as given; matched without regard to case")
        #expect(newDefault == "bob")
        #expect(try store.items().map(\.account) == ["bob@x.dev"])
        #expect(try await store.removeAccount(named: "nobody").removed == nil)
        #expect(try await store.setDefaultAccount(named: "nobody") == nil)
        #expect(try await store.setDefaultAccount(named: "work") == dav)
        #expect(try store.defaultAccountRecord() == dav)
    }

    @Test("A record round-trips through the file exactly, with every kind of secret")
    func recordsRoundTrip() throws {
        let records = [
            AccountRecord(name: "a", kind: "cardAPI", server: "http://h/v1", user: "a@h"),
            AccountRecord(name: "b", kind: "cardDAV", server: "https://d", user: "b", secret: .keyring),
            AccountRecord(name: "c", kind: "cardDAV", server: "https://d", user: "c", secret: .file),
            AccountRecord(
                name: "d", kind: "cardDAV", server: "https://d", user: "d", book: "/d/b/", bookName: "Bücher ☃",
                secret: .command(["/bin/sh", "-c", "pass show 'd'"])),
        ]
        var credentials = StoredCredentials()
        credentials.accounts = records
        credentials.defaultAccount = "c"
        let data = try TokenFileFormat.encode(credentials)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""secret" : {"#))
        #expect(text.contains(#""in" : "keyring""#))
        let decoded = try TokenFileFormat.decode(data)
        #expect(decoded.accounts == records)
        #expect(decoded.defaultAccount == "c")
        #expect(decoded.defaultRecord == records[2])
    }

    @Test("A record with an empty name or an unknown secret place makes the file unreadable, never half read")
    func badRecordsAreRefused() {
        let empty = Data(
            #"{"version": 3, "items": [], "accounts": [{"name": "", "kind": "cardAPI", "server": "http://h", "user": "u"}]}"#
                .utf8)
        #expect(throws: TokenStoreError.UnreadableReason.self) { try TokenFileFormat.decode(empty) }
        let place = Data(
            #"{"version": 3, "items": [], "accounts": [{"name": "n", "kind": "k", "server": "http://h", "user": "u", "secret": {"in": "cloud"}}]}"#
                .utf8)
        #expect(throws: TokenStoreError.UnreadableReason.self) { try TokenFileFormat.decode(place) }
    }

    @Test("Derived names: the email, else user@host; the host and port added when taken")
    func derivedNames() {
        #expect(
            AccountRecord.derivedName(user: "ann@x.dev", server: "http://127.0.0.1:9000/v1", taken: []) == "ann@x.dev")
        #expect(
            AccountRecord.derivedName(user: "alice", server: "https://dav.example.com/", taken: [])
                == "alice@dav.example.com")
        let taken = [
            AccountRecord(name: "ann@x.dev", kind: "cardAPI", server: "http://127.0.0.1:8080/v1", user: "ann@x.dev")
        ]
        #expect(
            AccountRecord.derivedName(user: "ann@x.dev", server: "http://127.0.0.1:9000/v1", taken: taken)
                == "ann@x.dev on 127.0.0.1:9000")
        // The same server and user keep their name.
        #expect(
            AccountRecord.derivedName(user: "ANN@x.dev", server: "http://127.0.0.1:8080/v1/", taken: taken)
                == "ann@x.dev")
    }
}
