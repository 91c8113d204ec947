import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// The login screen's browser login (Ctrl-O, OAuth 2.0): the call it makes, the address it shows
/// while it waits, Esc to cancel, and the authorization server's refusal in its own words.
@Suite struct BrowserLoginTests {
    static let address =
        "http://127.0.0.1:40123/authorize?response_type=code&client_id=cardwallet&state=abc&code_challenge=xyz"

    @Test func ctrlOStartsABrowserLoginAndShowsTheAddressToOpen() throws {
        var state = AppState(server: "google", pageSize: 50)
        state.send(.resize(width: 100, height: 30))
        let effects = state.press(.ctrl("o"))
        #expect(effects == [.perform(CallID(1), .logInWithBrowser(server: "google"))])
        #expect(state.login.isWaitingForBrowser)
        #expect(Renderer.render(state).text.contains("Starting the browser login"))
        state.send(.progress(CallID(1), CallProgress(done: 0, total: nil, link: Self.address)))
        #expect(state.login.browserAddress == Self.address)
        let frame = Renderer.render(state).text
        #expect(frame.contains("Log in in your browser (Esc cancels)"))
        // Cut into rows without spaces: the rows joined are the address.
        let joined = frame.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.contains(Self.address))
        // Enter does not start a password login meanwhile.
        #expect(state.press(.enter).isEmpty)
        state.send(.completed(CallID(1), .success(.loggedIn(email: "ann@example.com", server: "google"))))
        #expect(state.screen == .list)
        #expect(!state.login.isWaitingForBrowser && state.login.browserAddress == nil)
    }

    @Test func escCancelsTheWaitAndStoresNothing() {
        var state = AppState(server: "https://dav.example.com/", pageSize: 50)
        state.press(.ctrl("o"))
        let effects = state.press(.escape)
        #expect(effects == [.cancel(CallID(1))])
        #expect(state.screen == .login)
        #expect(!state.login.isWaitingForBrowser)
        #expect(state.login.error?.message == "The browser login was cancelled: nothing was stored.")
        // The cancelled call's answer changes nothing.
        state.send(.completed(CallID(1), .failure(UIFailure(.cancelled, message: "Cancelled."))))
        #expect(state.login.error?.message == "The browser login was cancelled: nothing was stored.")
        // Esc again quits, as on the login screen.
        #expect(state.press(.escape).contains(.quit))
    }

    @Test func aRefusalIsShownInTheServersWordsNotAsAWrongPassword() {
        var state = AppState(server: "https://dav.example.com/", pageSize: 50)
        state.press(.ctrl("o"))
        let denied = "The access was denied at the authorization server: nothing was stored."
        state.send(.completed(CallID(1), .failure(UIFailure(.loginFailed, message: denied))))
        #expect(state.login.error == LoginState.InlineError(nil, denied))
        #expect(!state.login.isSubmitting)
    }

    @Test func anAddressThatIsNotOneIsRefusedBeforeAnythingStarts() {
        var state = AppState(server: "dav example", pageSize: 50)
        #expect(state.press(.ctrl("o")).isEmpty)
        #expect(state.login.error?.field == .server)
        #expect(!state.login.isWaitingForBrowser)
    }

    @Test func theSessionExpiredDialogGrowsToShowTheWholeAddress() throws {
        var state = AppState.loggedIn(cards: 3)
        state.send(.resize(width: 100, height: 30))
        let effects = state.press(.char("r"))
        let (id, _) = try #require(AppState.lastRequest(effects))
        state.send(.completed(id, .failure(UIFailure(.mustLogIn, message: "log in again"))))
        try #require(state.reauth != nil)
        let login = state.press(.ctrl("o"))
        let (loginID, call) = try #require(AppState.lastRequest(login))
        #expect(call == .logInWithBrowser(server: state.reauth?.login.server.text ?? ""))
        let long = Self.address + String(repeating: "&x=0123456789", count: 12)
        state.send(.progress(loginID, CallProgress(done: 0, total: nil, link: long)))
        let rows = Renderer.render(state).text.split(separator: "\n").map {
            $0.replacingOccurrences(of: "│", with: "").trimmingCharacters(in: .whitespaces)
        }
        #expect(rows.joined().contains(long), "\(Renderer.render(state).text)")
    }
}
