import CardModels

/// The login form (also the session-expired dialog): server, email and a masked password.
public struct LoginState: Equatable, Sendable {
    /// The fields, in order.
    public enum Field: Int, CaseIterable, Equatable, Sendable {
        case server, email, password

        /// For people.
        public var label: String {
            switch self {
            case .server: "Server"
            case .email: "Email"
            case .password: "Password"
            }
        }
    }

    /// An error shown under a field (or under the form when `field` is `nil`).
    public struct InlineError: Equatable, Sendable {
        /// The field it is about, or `nil` for the whole form.
        public var field: Field?
        /// What to do about it.
        public var message: String

        /// An error about `field`.
        public init(_ field: Field?, _ message: String) {
            self.field = field
            self.message = message
        }
    }

    /// The server's base URL.
    public var server: TextFieldState
    /// The account's email.
    public var email: TextFieldState
    /// The password: shown masked, emptied after a login and after a wrong password.
    public var password: TextFieldState
    /// The fields the user can edit: all three on the login screen; email and password in the
    /// session-expired dialog, which logs in again to the same server.
    public var editable: [Field]
    /// The focused field.
    public var focus: Field
    /// The inline error, if any.
    public var error: InlineError?
    /// Set while the login request is in flight.
    public var isSubmitting = false
    /// Set while a browser login (OAuth 2.0, Ctrl-O) waits for the browser to come back.
    public var isWaitingForBrowser = false
    /// The authorization address of that login, once it is known: shown for the person to open
    /// (on another device, when no browser opened here).
    public var browserAddress: String?

    /// A form filled with what is known; the focus starts on the first empty field.
    public init(server: String, email: String = "", password: String = "", editable: [Field] = Field.allCases) {
        self.server = TextFieldState(server)
        self.email = TextFieldState(email)
        self.password = TextFieldState(password)
        self.editable = editable.isEmpty ? Field.allCases : editable
        let values = [server, email, password]
        self.focus = self.editable.first { values[$0.rawValue].isEmpty } ?? self.editable.last ?? .password
    }

    /// The text field of `field`.
    public subscript(field: Field) -> TextFieldState {
        get {
            switch field {
            case .server: server
            case .email: email
            case .password: password
            }
        }
        set {
            switch field {
            case .server: server = newValue
            case .email: email = newValue
            case .password: password = newValue
            }
        }
    }
}

/// What can happen to the login form.
public enum LoginAction: Equatable, Sendable {
    case command(LoginCommand)
    /// Editing the focused field; `typed` is the character for ``TextCommand/insert``.
    case text(TextCommand, typed: Character?)
    /// Text pasted into the focused field (already on one line).
    case paste(String)
    /// The login call finished.
    case finished(CallOutcome)
    /// The login call failed.
    case failed(UIFailure)
    /// The login call succeeded.
    case succeeded
    /// A browser login's authorization address, to show while it waits.
    case browserAddress(String)
}

/// What the login form asks the app to do.
public enum LoginEffect: Equatable, Sendable {
    /// Log in (the app routes the outcome back as ``LoginAction/finished(_:)``).
    case submit(server: String, email: String, password: String)
    /// Log in with OAuth 2.0 in the browser at `server` (`google`, an address, or empty for the
    /// configured one).
    case submitBrowser(server: String)
    /// Stop waiting for the browser: the login call is cancelled, nothing is stored.
    case cancelBrowser
    /// Logged in as `email` at `server`.
    case loggedIn(email: String, server: String)
    case quit
}

extension LoginState {
    /// Applies `action`.
    public mutating func reduce(_ action: LoginAction) -> [LoginEffect] {
        switch action {
        case .command(.nextField), .command(.previousField):
            let step = action == .command(.nextField) ? 1 : -1
            let position = editable.firstIndex(of: focus) ?? 0
            focus = editable[(position + step + editable.count) % editable.count]
        case .command(.submit):
            guard !isWaitingForBrowser else { return [] }
            return submit()
        case .command(.browser):
            return submitBrowser()
        case .command(.quit):
            guard isWaitingForBrowser else { return [.quit] }
            endBrowserWait()
            error = InlineError(nil, "The browser login was cancelled: nothing was stored.")
            return [.cancelBrowser]
        case .browserAddress(let address):
            if isWaitingForBrowser { browserAddress = address }
        case .text(let command, let typed):
            guard !isSubmitting else { return [] }
            if command == .insert, typed?.isControl ?? true { return [] }
            if self[focus].apply(command, typed: typed), error?.field == focus || error?.field == nil {
                error = nil
            }
        case .paste(let text):
            guard !isSubmitting else { return [] }
            if self[focus].insert(text), error?.field == focus || error?.field == nil { error = nil }
        case .failed(let failure):
            isSubmitting = false
            if isWaitingForBrowser {
                // The authorization server's or the token endpoint's own words: not a password problem.
                endBrowserWait()
                error = InlineError(nil, failure.message)
                return []
            }
            if failure.kind == .cancelled, error != nil { return [] }
            switch failure.kind {
            case .loginFailed:
                password = TextFieldState()
                focus = editable.contains(.password) ? .password : focus
                error = InlineError(.password, "Wrong email or password\(failure.codeNote). Try again.")
            case .wrongAddress:
                focus = editable.contains(.server) ? .server : focus
                error = InlineError(
                    editable.contains(.server) ? .server : nil,
                    "No card API at this address (404): its base URL usually ends in /v1, e.g. http://127.0.0.1:8080/v1"
                )
            case .cannotConnect(let url):
                focus = editable.contains(.server) ? .server : focus
                error = InlineError(
                    editable.contains(.server) ? .server : nil, "Cannot connect to \(url): \(failure.message)")
            case .rateLimited(let seconds):
                let wait = seconds.map { "in \($0) s" } ?? "in a minute"
                error = InlineError(nil, "Too many attempts\(failure.codeNote). Try again \(wait).")
            case .validation(let fields):
                let field: Field? = fields["email"] != nil ? .email : (fields["password"] != nil ? .password : nil)
                // Neither field was wrong: the request went somewhere that is not the API.
                let hint =
                    field == nil ? " Is the server address the API's base URL, e.g. http://127.0.0.1:8080/v1?" : ""
                error = InlineError(field, failure.message + hint)
            default:
                error = InlineError(nil, failure.message)
            }
        case .succeeded:
            isSubmitting = false
            endBrowserWait()
            error = nil
            password = TextFieldState()
        case .finished(.success(let result)):
            _ = reduce(.succeeded)
            if case .loggedIn(let email, let server) = result { return [.loggedIn(email: email, server: server)] }
        case .finished(.failure(let failure)):
            return reduce(.failed(failure))
        }
        return []
    }

    /// Starts a browser login at the Server field's address: `google`, a web address, or empty for
    /// the one the settings name (`oauth.issuer`'s CardDAV server, or the stored account's).
    private mutating func submitBrowser() -> [LoginEffect] {
        guard !isSubmitting else { return [] }
        let server = trimmed(self.server.text)
        if !server.isEmpty, server.lowercased() != "google", !CardFormat.isWebURL(server) {
            focus = editable.contains(.server) ? .server : focus
            error = InlineError(
                editable.contains(.server) ? .server : nil,
                "A browser login needs the CardDAV server's address (https://…), or “google” for Google Contacts")
            return []
        }
        isSubmitting = true
        isWaitingForBrowser = true
        browserAddress = nil
        error = nil
        return [.submitBrowser(server: server.lowercased() == "google" ? "google" : server)]
    }

    private mutating func endBrowserWait() {
        isSubmitting = false
        isWaitingForBrowser = false
        browserAddress = nil
    }

    private mutating func submit() -> [LoginEffect] {
        guard !isSubmitting else { return [] }
        let server = trimmed(self.server.text)
        let email = trimmed(self.email.text)
        if !CardFormat.isWebURL(server) {
            focus = .server
            let lower = server.lowercased()
            let message =
                server.isEmpty
                ? "Enter the server's address, e.g. http://127.0.0.1:8080/v1"
                : lower.hasPrefix("http://") || lower.hasPrefix("https://") || server.contains(where: \.isWhitespace)
                    ? "That is not a web address: write it as http://HOST:PORT/v1"
                    : "The address must start with http:// or https://, e.g. http://\(server)"
            error = InlineError(editable.contains(.server) ? .server : nil, message)
            return []
        }
        // The card API knows accounts by email; a CardDAV server by a user name (docs/CardDAV.md).
        if !CardFormat.isEmail(email) && (email.contains("@") || !Self.isUserName(email)) {
            focus = .email
            error = InlineError(
                .email,
                email.isEmpty
                    ? "Enter your email address (or a CardDAV server's user name)"
                    : email.contains("@")
                        ? "That is not an email address" : "That is not an email address or a user name")
            return []
        }
        if password.text.isEmpty {
            focus = .password
            error = InlineError(.password, "Enter your password")
            return []
        }
        isSubmitting = true
        error = nil
        return [.submit(server: server, email: email, password: password.text)]
    }

    private func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}

extension LoginState: CustomStringConvertible, CustomDebugStringConvertible {
    /// The form without the password.
    public var description: String {
        "LoginState(server: \(server.text), email: \(email.text), password: <private>, focus: \(focus), "
            + "error: \(error?.message ?? "none"), submitting: \(isSubmitting))"
    }

    /// The form without the password.
    public var debugDescription: String { description }
}

extension LoginState {
    /// A CardDAV server's user name as the form takes it: 1–128 letters, digits, `.`, `_`, `-`
    /// or `+` (a name with `@` is an email address, checked as one).
    static func isUserName(_ text: String) -> Bool {
        (1...128).contains(text.count)
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || "._-+".unicodeScalars.contains(scalar)
            }
    }
}
