import CardModels
import Foundation
import Testing

@testable import CardWalletUI

@Suite struct Explore {
    @Test func dump() throws {
        var state = AppState.loggedIn(cards: 14, width: 80, height: 24)
        var out = Renderer.render(state).text + "\n=====\n"
        state.log.isVisible = true
        for i in 0..<5 {
            state.log.buffer.append(LogLine(id: UInt64(i), time: SampleCards.epoch, kind: .response, method: "GET", path: "/cards?offset=0", status: 200, duration: .milliseconds(12), bytes: 4000, text: "ok"))
        }
        out += Renderer.render(state).text + "\n=====\n"
        var wide = AppState.loggedIn(cards: 14, width: 120, height: 40)
        wide.press(.enter)
        out += Renderer.render(wide).text + "\n=====\n"
        var login = AppState(server: testServer, email: "", width: 80, height: 24)
        login.press(.enter)
        out += Renderer.render(login).text + "\n=====\n"
        out += Renderer.render(AppState(server: testServer, width: 50, height: 12)).text + "\n=====\n"
        var form = AppState.loggedIn(cards: 3)
        form.press(.char("a"))
        form.type("x")
        form.press(.tab, .tab, .tab, .tab)
        form.type("bad")
        out += Renderer.render(form).text + "\n=====\n"
        var help = AppState.loggedIn(cards: 3)
        help.press(.char("?"))
        out += Renderer.render(help).text + "\n=====\n"
        var confirm = AppState.loggedIn(cards: 3)
        confirm.press(.char("d"))
        out += Renderer.render(confirm).text + "\n=====\n"
        try out.write(toFile: "/tmp/ui-explore.txt", atomically: true, encoding: .utf8)
    }
}
