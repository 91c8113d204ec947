import CardModels
import Testing

@testable import CardWalletUI

@Suite struct KeyTableTests {
    /// One state per key context the app has.
    static func contexts() -> [(String, AppState)] {
        var result: [(String, AppState)] = [("login", AppState(server: testServer))]
        let list = AppState.loggedIn(cards: 3)
        result.append(("list", list))
        var filter = list
        filter.press(.char("/"))
        result.append(("filter", filter))
        var detail = list
        detail.press(.enter)
        result.append(("detail", detail))
        var form = list
        form.press(.char("a"))
        result.append(("form", form))
        var conflict = list
        conflict.form = FormState(editing: SampleCards.card(SampleCards.summary(number: 0)), returnsToDetail: false)
        conflict.form?.conflict = SampleCards.card(SampleCards.summary(number: 0))
        conflict.screen = .form
        result.append(("conflict", conflict))
        var log = list
        log.press(.char("l"), .tab)
        result.append(("log", log))
        var confirm = list
        confirm.press(.char("d"))
        result.append(("confirm", confirm))
        var help = list
        help.press(.char("?"))
        result.append(("help", help))
        var reauth = list
        reauth.send(.session(.expired(email: testEmail, server: testServer)))
        result.append(("reauth", reauth))
        return result
    }

    @Test func everyListedKeyDoesWhatItsTableSays() {
        for (name, state) in Self.contexts() {
            for table in state.activeKeyTables {
                for binding in table.bindings {
                    for pattern in binding.keys {
                        let key: Key =
                            switch pattern {
                            case .key(let key): key
                            case .printable: .char("x")
                            case .anyKey: .function(9)
                            }
                        #expect(
                            state.command(for: key) == binding.command,
                            "\(name): \(key.displayName) is listed in \(table.title) as \(binding.summary)")
                    }
                }
            }
        }
    }

    @Test func helpListsExactlyTheTablesTheReducerDispatchesOn() {
        for (name, state) in Self.contexts() {
            var withHelp = state
            withHelp.modal = .help(scroll: 0)
            let expected = state.modal == nil ? state.activeKeyTables : withHelp.helpTables
            #expect(withHelp.helpTables == expected, "\(name)")
            let lines = withHelp.helpLines
            for table in expected {
                #expect(lines.contains { $0.isTitle && $0.keys == table.title }, "\(name): \(table.title)")
                for binding in table.bindings {
                    #expect(
                        lines.contains { $0.keys == binding.keyNames && $0.summary == binding.summary },
                        "\(name): \(binding.summary)")
                }
            }
        }
    }

    @Test func theRenderedHelpPageShowsEveryKeyOfTheList() {
        var state = AppState.loggedIn(cards: 3, width: 100, height: 60)
        state.press(.char("?"))
        let text = Renderer.render(state).text
        for binding in KeyTables.list.bindings + KeyTables.global.bindings {
            #expect(text.contains(binding.summary), "\(binding.summary)")
        }
    }

    @Test func typingScreensLetLettersThrough() {
        var form = AppState.loggedIn(cards: 1)
        form.press(.char("a"))
        for letter in "qlL?jkdesnNJK/" {
            #expect(form.command(for: .char(letter)) == .text(.insert))
        }
        #expect(form.command(for: .function(1)) == .global(.help))
    }

    @Test func keyNamesReadWell() {
        #expect(Key.ctrl("d").displayName == "Ctrl-D")
        #expect(Key.char(" ").displayName == "Space")
        #expect(Key.backTab.displayName == "Shift-Tab")
        #expect(Key.function(1).displayName == "F1")
        #expect(KeyTables.list.bindings[0].keyNames == "j ↓")
    }
}
