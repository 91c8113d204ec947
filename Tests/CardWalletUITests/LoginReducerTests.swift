import Testing

@testable import CardWalletUI

@Suite struct LoginReducerTests {
    @Test func focusStartsOnTheFirstEmptyFieldAndTabCycles() {
        var login = LoginState(server: testServer)
        #expect(login.focus == .email)
        var expected = login
        _ = login.reduce(.command(.nextField))
        expected.focus = .password
        #expect(login == expected)
        _ = login.reduce(.command(.nextField))
        expected.focus = .server
        #expect(login == expected)
        _ = login.reduce(.command(.previousField))
        expected.focus = .password
        #expect(login == expected)
    }

    @Test func typingEditsTheFocusedField() {
        var login = LoginState(server: testServer)
        var expected = login
        for character in "me@x.io" { _ = login.reduce(.text(.insert, typed: character)) }
        expected.email = TextFieldState("me@x.io")
        #expect(login == expected)
        _ = login.reduce(.text(.deleteBackward, typed: nil))
        expected.email = TextFieldState("me@x.i")
        #expect(login == expected)
        _ = login.reduce(.text(.moveToStart, typed: nil))
        expected.email.cursor = 0
        #expect(login == expected)
        _ = login.reduce(.text(.insert, typed: "\u{1B}"))
        #expect(login == expected)
    }

    @Test func submitValidatesEachFieldInline() {
        var login = LoginState(server: "not a url", email: "x@", password: "")
        var effects = login.reduce(.command(.submit))
        #expect(effects.isEmpty)
        #expect(login.error == .init(.server, "That is not a web address: write it as http://HOST:PORT/v1"))
        #expect(login.focus == .server)
        login.server = TextFieldState(testServer)
        effects = login.reduce(.command(.submit))
        #expect(login.error == .init(.email, "That is not an email address"))
        login.email = TextFieldState(testEmail)
        effects = login.reduce(.command(.submit))
        #expect(login.error == .init(.password, "Enter your password"))
        #expect(login.focus == .password)
        _ = login.reduce(.text(.insert, typed: "p"))
        #expect(login.error == nil)
        effects = login.reduce(.command(.submit))
        #expect(effects == [.submit(server: testServer, email: testEmail, password: "p")])
        #expect(login.isSubmitting)
        // A second Enter while the request is in flight does nothing.
        #expect(login.reduce(.command(.submit)).isEmpty)
    }

    @Test func wrongPasswordStaysOnTheFormWithTheEmailKept() {
        var login = LoginState(server: testServer, email: testEmail, password: "wrong")
        _ = login.reduce(.command(.submit))
        _ = login.reduce(.failed(UIFailure(.loginFailed, message: "wrong email or password", serverCode: "E02")))
        var expected = LoginState(server: testServer, email: testEmail, password: "")
        expected.error = .init(.password, "Wrong email or password (E02). Try again.")
        #expect(login == expected)
    }

    /// A code shows only when the server sent one: a CardDAV server refusing a password sends none.
    @Test func aRefusalWithoutACodeNamesNone() {
        var login = LoginState(server: testServer, email: testEmail, password: "wrong")
        _ = login.reduce(.command(.submit))
        _ = login.reduce(.failed(UIFailure(.loginFailed, message: "the password was refused")))
        #expect(login.error == .init(.password, "Wrong email or password. Try again."))
        _ = login.reduce(.failed(UIFailure(.rateLimited(retryAfterSeconds: nil), message: "slow down")))
        #expect(login.error == .init(nil, "Too many attempts. Try again in a minute."))
    }

    @Test func cannotConnectNamesTheURL() {
        var login = LoginState(server: testServer, email: testEmail, password: "pw")
        _ = login.reduce(.command(.submit))
        _ = login.reduce(.failed(UIFailure(.cannotConnect(url: testServer), message: "connection refused")))
        #expect(login.error == .init(.server, "Cannot connect to \(testServer): connection refused"))
        #expect(login.focus == .server)
        #expect(login.password.text == "pw")
        #expect(!login.isSubmitting)
    }

    @Test func aServerThatIsNotTheAPIGetsAHintAndTheWholeMessageShows() {
        var state = AppState(server: "http://127.0.0.1:8080", email: testEmail, password: "pw")
        let effects = state.press(.enter)
        let message =
            "The server refused POST /auth/login as invalid (E01). The server said: “There is no such endpoint.”"
        state.answer(effects) { _ in .failure(UIFailure(.validation(fields: [:]), message: message)) }
        #expect(state.login.error?.field == nil)
        #expect(
            state.login.error?.message.hasSuffix(
                "Is the server address the API's base URL, e.g. http://127.0.0.1:8080/v1?") == true)
        // Wrapped under the form, not cut after one line.
        let text = Renderer.render(state).text
        #expect(text.contains("no such endpoint"))
        #expect(text.contains("http://127.0.0.1:8080/v1?"))
    }

    @Test func rateLimitedSaysWhenToRetry() {
        var login = LoginState(server: testServer, email: testEmail, password: "pw")
        _ = login.reduce(
            .failed(UIFailure(.rateLimited(retryAfterSeconds: 30), message: "slow down", serverCode: "E10")))
        #expect(login.error == .init(nil, "Too many attempts (E10). Try again in 30 s."))
    }

    @Test func successForgetsThePassword() {
        var login = LoginState(server: testServer, email: testEmail, password: "pw")
        _ = login.reduce(.command(.submit))
        _ = login.reduce(.succeeded)
        #expect(login.password.text.isEmpty)
        #expect(!login.isSubmitting)
        #expect(!login.description.contains("pw"))
        #expect(
            AppCall.logIn(server: testServer, email: testEmail, password: "hunter2").description.contains("hunter2")
                == false)
    }
}

@Suite struct TextFieldTests {
    @Test func readlineEditing() {
        var field = TextFieldState("hello world")
        field.apply(.deleteWordBackward)
        #expect(field == TextFieldState("hello "))
        field.apply(.deleteWordBackward)
        #expect(field.text.isEmpty)
        field = TextFieldState("김민지")
        field.apply(.moveLeft)
        field.apply(.insert, typed: "X")
        #expect(field.text == "김민X지")
        #expect(field.cursor == 3)
        field.apply(.deleteToEnd)
        #expect(field.text == "김민X")
        field.apply(.moveLeft)
        field.apply(.deleteToStart)
        #expect(field.text == "X")
        #expect(field.cursor == 0)
        field.apply(.deleteForward)
        #expect(field.text.isEmpty)
        let changedForward = field.apply(.deleteForward)
        let changedBackward = field.apply(.deleteBackward)
        #expect(!changedForward)
        #expect(!changedBackward)
    }
}

@Suite struct LoginAddressTests {
    @Test(arguments: [
        ("", "Enter the server's address, e.g. http://127.0.0.1:8080/v1"),
        ("localhost:8080/v1", "The address must start with http:// or https://, e.g. http://localhost:8080/v1"),
        ("http://", "That is not a web address: write it as http://HOST:PORT/v1"),
    ])
    func aWrongAddressIsExplainedUnderTheServerField(server: String, message: String) {
        var login = LoginState(server: server, email: "a@b.co", password: "pw")
        let effects = login.reduce(.command(.submit))
        #expect(effects.isEmpty)
        #expect(login.error == .init(.server, message))
        #expect(login.focus == .server)
    }

    @Test func noSuchEndpointIsTheServerFieldsFault() {
        var login = LoginState(server: "http://127.0.0.1:8080", email: "a@b.co", password: "pw")
        _ = login.reduce(.command(.submit))
        _ = login.reduce(.failed(UIFailure(.wrongAddress, message: "no such endpoint")))
        #expect(login.error?.field == .server)
        #expect(login.focus == .server)
        #expect(login.error?.message.contains("API.md") == false)
    }
}

extension LoginReducerTests {
    /// A CardDAV server knows accounts by user name: the form takes one (`alice`), and still
    /// refuses what is neither a user name nor an email address.
    @Test func aCardDAVUserNameIsTakenWhereAnEmailIs() {
        var login = LoginState(server: testServer, email: "alice", password: "secret")
        #expect(login.reduce(.command(.submit)) == [.submit(server: testServer, email: "alice", password: "secret")])
        for bad in ["al ice", "alice?", "ada@", String(repeating: "a", count: 129)] {
            var refused = LoginState(server: testServer, email: bad, password: "secret")
            #expect(refused.reduce(.command(.submit)).isEmpty, "\(bad)")
            #expect(refused.error?.field == .email, "\(bad)")
        }
    }
}
