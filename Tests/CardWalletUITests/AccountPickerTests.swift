import CardModels
import Testing

@testable import CardWalletUI

/// Switching between the stored accounts (issue 38): `A` on the list opens the picker (and reads
/// the accounts again), Enter switches, the switched account's cards load — or the login screen
/// opens filled in when that account must log in again. F3 opens it from the login screen.
@Suite struct AccountPickerTests {
    static let accounts = [
        StoredAccount(
            name: "demo@cardwallet.dev", kind: "card API", server: "http://127.0.0.1:8080/v1",
            user: "demo@cardwallet.dev", loggedIn: true, inUse: true),
        StoredAccount(
            name: "alice@dav.example.com", kind: "CardDAV", server: "https://dav.example.com", user: "alice",
            book: "personal", loggedIn: true),
        StoredAccount(
            name: "bob@dav.example.com", kind: "CardDAV", server: "https://dav.example.com", user: "bob",
            loggedIn: false),
    ]

    static func listWithAccounts() -> AppState {
        var state = AppState.loggedIn(cards: 3)
        state.storedAccounts = accounts
        return state
    }

    @Test func aOpensThePickerOnTheNextAccountAndReadsTheAccountsAgain() throws {
        var state = Self.listWithAccounts()
        let effects = state.press(.char("A"))
        let picker = try #require(state.overlay?.as(AccountPicker.self))
        #expect(picker.selected == 1, "the account after the one in use")
        #expect(AppState.lastRequest(effects)?.1 == .listAccounts)
        let frame = Renderer.render(state).text
        #expect(frame.contains("Accounts"))
        #expect(frame.contains("* demo@cardwallet.dev  card API"))
        #expect(frame.contains("alice@dav.example.com  CardDAV · personal"))
        #expect(frame.contains("bob@dav.example.com  CardDAV  (log in again)"))
    }

    @Test func enterSwitchesAndTheNewAccountsCardsLoad() throws {
        var state = Self.listWithAccounts()
        _ = state.press(.char("A"))
        let effects = state.press(.enter)
        #expect(state.overlay == nil)
        let (_, call) = try #require(AppState.lastRequest(effects))
        #expect(call == .switchAccount(name: "alice@dav.example.com"))
        var switched = Self.accounts
        switched[0].inUse = false
        switched[1].inUse = true
        let next = state.answer(effects) { _ in
            .success(
                .switchedAccount(
                    switched[1], session: .loggedIn(email: "alice", server: "https://dav.example.com · personal"),
                    accounts: switched))
        }
        #expect(state.session == .loggedIn(email: "alice", server: "https://dav.example.com · personal"))
        #expect(state.storedAccounts == switched)
        #expect(state.screen == .list)
        #expect(AppState.lastRequest(next)?.1 == .loadCards(offset: 0, limit: 100, query: nil))
        #expect(state.message?.text == "Account “alice@dav.example.com”")
    }

    @Test func anAccountThatMustLogInAgainOpensTheLoginScreenFilledIn() throws {
        var state = Self.listWithAccounts()
        _ = state.press(.char("A"), .char("j"))
        let effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .switchAccount(name: "bob@dav.example.com"))
        _ = state.answer(effects) { _ in
            .success(.switchedAccount(Self.accounts[2], session: .loggedOut, accounts: Self.accounts))
        }
        #expect(state.screen == .login)
        #expect(state.login.server.text == "https://dav.example.com")
        #expect(state.login.email.text == "bob")
        #expect(state.login.focus == .password)
    }

    @Test func withNoStoredAccountTheKeySaysWhy() {
        var state = AppState.loggedIn(cards: 3)
        _ = state.press(.char("A"))
        #expect(state.overlay == nil)
        #expect(state.message?.text.contains("No stored accounts yet") == true)
    }

    @Test func theLoginScreenListsTheAccountsAndF3OpensThePicker() throws {
        var state = AppState(server: "http://127.0.0.1:8080/v1", email: "", pageSize: 50)
        state.storedAccounts = Self.accounts
        let frame = Renderer.render(state).text
        #expect(frame.contains("Stored accounts (F3 to switch):"))
        #expect(frame.contains("* demo@cardwallet.dev"))
        // Letters go to the fields; F3 opens the picker.
        _ = state.press(.char("A"))
        #expect(state.overlay == nil)
        _ = state.press(.function(3))
        #expect(state.overlay?.as(AccountPicker.self) != nil)
    }

    @Test func loggingOutOneAccountFillsTheFormForItAndListsTheOthers() throws {
        var state = Self.listWithAccounts()
        let effects = state.press(.char("O"))
        let (_, call) = try #require(AppState.lastRequest(effects))
        #expect(call == .logOut)
        let next = state.answer(effects) { _ in .success(.loggedOut) }
        #expect(state.screen == .login)
        #expect(state.login.server.text == "http://127.0.0.1:8080/v1")
        #expect(state.login.email.text == "demo@cardwallet.dev")
        #expect(AppState.lastRequest(next)?.1 == .listAccounts)
    }
}
