import CSecretLoader
import Foundation

/// Passwords in the system keyring: the freedesktop Secret Service on the session bus (GNOME
/// Keyring, KeePassXC, KWallet), through libsecret, loaded at the first use.
///
/// A password is stored with the label `CardWallet: <account>` and the attributes
/// `application=cardwallet`, `server=<server>`, `user=<user>`, so
/// `secret-tool lookup application cardwallet server S user U` finds it.
///
/// A locked keyring gets libsecret's own unlock prompt where one can appear (a desktop session);
/// elsewhere it is a ``SecretError/Reason/locked`` failure, never a silent fallback.
public struct KeyringSecretStore: SecretStore {
    /// The environment the session bus is found in (`DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`).
    public let environment: [String: String]
    /// How long one call may take: a keyring that does not answer in time is reported, not waited for.
    public let timeout: Duration

    /// The keyring of the session `environment` names.
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - timeout: the longest one call may take; a prompt on a desktop needs time for a person.
    public init(environment: [String: String], timeout: Duration? = nil) {
        self.environment = environment
        let desktop =
            (environment["DISPLAY"] ?? "").isEmpty == false
            || (environment["WAYLAND_DISPLAY"] ?? "").isEmpty == false
        self.timeout = timeout ?? (desktop ? .seconds(120) : .seconds(15))
    }

    /// Why no keyring can answer here, found without asking one: no session bus is named in the
    /// environment. `nil` when there is a bus to ask (the keyring may still not be on it).
    ///
    /// Checked before libsecret is loaded, so that libsecret never starts a bus of its own
    /// (`dbus-launch`) for a process that has none.
    public var missingBus: String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime + "/bus")
        {
            return nil
        }
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    }

    /// Whether a keyring answers: a lookup that finds nothing is an answer. `nil` when one does;
    /// else why not.
    public func unavailability() async -> SecretError? {
        do {
            _ = try await secret(for: SecretKey(account: "", server: "cardwallet:probe", user: "probe"))
            return nil
        } catch {
            return error
        }
    }

    public func secret(for key: SecretKey) async throws(SecretError) -> String? {
        try await call("read the password from") { message in
            var password: UnsafeMutablePointer<CChar>?
            let status = cwsecret_lookup(key.server, key.user, &password, &message)
            defer { cwsecret_free_password(password) }
            return (status, password.map { String(cString: $0) })
        }
    }

    public func store(_ secret: String, for key: SecretKey) async throws(SecretError) {
        let _: Bool? = try await call("store the password in") { message in
            (cwsecret_store(key.label, key.server, key.user, secret, &message), true)
        }
    }

    public func remove(for key: SecretKey) async throws(SecretError) {
        let _: Bool? = try await call("remove the password from") { message in
            (cwsecret_clear(key.server, key.user, &message), true)
        }
    }

    /// Runs one blocking libsecret call on a thread of its own, within ``timeout``.
    private func call<Value: Sendable>(
        _ action: String, _ body: @escaping @Sendable (inout UnsafeMutablePointer<CChar>?) -> (cwsecret_status, Value?)
    ) async throws(SecretError) -> Value? {
        if let missingBus { throw SecretError(.noKeyring, "No keyring answers: \(missingBus).") }
        let outcome = await Self.onThread(timeout: timeout) { () -> (cwsecret_status, Value?, String?) in
            var message: UnsafeMutablePointer<CChar>?
            let (status, value) = body(&message)
            let text = message.map { String(cString: $0) }
            cwsecret_free(message)
            return (status, value, text)
        }
        guard let (status, value, text) = outcome else {
            throw SecretError(
                .keyring,
                "The keyring did not answer within \(timeout.components.seconds) s (a locked keyring waiting for an "
                    + "unlock prompt that cannot appear here?): could not \(action) the keyring. Unlock it and try again."
            )
        }
        let detail = text.map { " (\(SecretError.escaped($0)))" } ?? ""
        switch status {
        case CWSECRET_OK: return value
        case CWSECRET_NO_LIBRARY: throw SecretError(.noKeyring, "No keyring answers: libsecret is not installed.")
        case CWSECRET_NO_SERVICE:
            throw SecretError(.noKeyring, "No keyring answers on the session bus\(detail).")
        case CWSECRET_LOCKED:
            throw SecretError(
                .locked,
                "The keyring is locked and could not be unlocked here\(detail): unlock it (log in to the desktop, "
                    + "or run `gnome-keyring-daemon --unlock`) and try again.")
        default:
            throw SecretError(.keyring, "Could not \(action) the keyring\(detail).")
        }
    }

    /// `body` on a new thread; `nil` when it has not finished after `timeout` (it then finishes
    /// on its own, unseen).
    private static func onThread<Value: Sendable>(
        timeout: Duration, _ body: @escaping @Sendable () -> Value
    ) async -> Value? {
        let box = OnceBox<Value?>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            box.set(continuation)
            box.setTimer(
                Task {
                    try? await Task.sleep(for: timeout)
                    box.resume(nil)
                })
            let thread = Thread { box.resume(body()) }
            thread.start()
        }
    }
}

/// A continuation resumed once, by whichever comes first.
private final class OnceBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    private var timer: Task<Void, Never>?

    func setTimer(_ task: Task<Void, Never>) {
        lock.withLock { timer = task }
    }

    func resume(_ value: Value) {
        let (waiting, timer) = lock.withLock { () -> (CheckedContinuation<Value, Never>?, Task<Void, Never>?) in
            defer {
                continuation = nil
                self.timer = nil
            }
            return (continuation, self.timer)
        }
        timer?.cancel()
        waiting?.resume(returning: value)
    }
}
