// The keyring from the command line, for SecretsTests (not shipped): libsecret reads the session
// bus from the process environment, so the tests run this in a child whose environment names a
// private bus (TestSupport's PrivateKeyring).
//
//   keyring-tool store SERVER USER LABEL    (the password on standard input, first line)
//   keyring-tool lookup SERVER USER         (prints the password; exit 1 when none is kept)
//   keyring-tool clear SERVER USER
//   keyring-tool probe                      (exit 0 when a keyring answers)
//
// A failure prints `reason: message` on standard error and exits 2.
import Foundation
import Secrets
import TokenStore

let arguments = CommandLine.arguments.dropFirst()
let environment = ProcessInfo.processInfo.environment
let store = KeyringSecretStore(
    environment: environment,
    timeout: environment["KEYRING_TOOL_TIMEOUT"].flatMap(Int.init).map { .seconds($0) } ?? .seconds(15))

func fail(_ error: SecretError) -> Never {
    FileHandle.standardError.write(Data("\(error.reason): \(error.description)\n".utf8))
    exit(2)
}

func key(_ server: String, _ user: String, label: String = "") -> SecretKey {
    SecretKey(account: label, server: server, user: user)
}

do throws(SecretError) {
    switch Array(arguments) {
    case ["probe"]:
        if let problem = await AccountSecrets(
            keyring: store, tokenStore: .init(path: "/nonexistent/tokens.json"), environment: environment
        ).keyringProblem() {
            fail(problem)
        }
    case let words where words.count == 4 && words[0] == "store":
        let password = readLine(strippingNewline: true) ?? ""
        try await store.store(password, for: key(words[1], words[2], label: words[3]))
    case let words where words.count == 3 && words[0] == "lookup":
        guard let password = try await store.secret(for: key(words[1], words[2])) else { exit(1) }
        print(password)
    case let words where words.count == 3 && words[0] == "clear":
        try await store.remove(for: key(words[1], words[2]))
    default:
        FileHandle.standardError.write(Data("usage: keyring-tool store|lookup|clear|probe …\n".utf8))
        exit(64)
    }
} catch {
    fail(error)
}
