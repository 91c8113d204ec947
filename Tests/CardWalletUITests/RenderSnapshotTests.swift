import CardModels
import Foundation
import Testing

@testable import CardWalletUI

@Suite struct RenderSnapshotTests {
    /// Sample cards with hostile ones and a very long one mixed in.
    static func mixedPage() -> CardPage {
        var cards = SampleCards.summaries(count: 9)
        cards.insert(contentsOf: SampleCards.hostile, at: 2)
        // A Devanagari conjunct is one grapheme of three terminal cells: nothing of it is lost.
        cards.append(
            CardSummary(
                id: "hindi", name: "Priya (प्रिया)", title: "डेटा वैज्ञानिक", company: "क्षितिज Labs",
                email: "priya@example.in", updatedAt: SampleCards.epoch))
        cards.append(
            CardSummary(
                id: "long", name: "Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff",
                title: "Senior Principal Distinguished Engineer of Everything", company: "北京字节跳动科技有限公司",
                email: "maximilian.alexander.wolfeschlegelsteinhausenbergerdorff@very-long-domain.example.com",
                updatedAt: SampleCards.epoch))
        return CardPage(cards: cards, total: cards.count, offset: 0, limit: 100)
    }

    static func list(width: Int, height: Int) -> AppState {
        var state = AppState(server: testServer, email: testEmail, password: "pw", width: width, height: height)
        let effects = state.press(.enter)
        let more = state.answer(effects) { _ in .success(.loggedIn(email: testEmail, server: testServer)) }
        state.answer(more) { _ in .success(.cards(mixedPage())) }
        state.press(.char("j"))
        return state
    }

    static func hostileLogLine() -> LogLine {
        LogLine(
            id: 7, time: SampleCards.epoch, kind: .response, method: "GET", path: "/card/\u{1B}[2J", status: 404,
            errorCode: "E05", duration: .milliseconds(3), bytes: 120, isFailure: true,
            text: "no such card \u{1B}]52;c;eA==\u{07}\u{202E}", detail: ["Authorization: <private>"])
    }

    static func states() -> [(String, AppState)] {
        var result: [(String, AppState)] = []
        result.append(("list 80x24", list(width: 80, height: 24)))

        var filtered = list(width: 80, height: 24)
        filtered.press(.char("/"))
        filtered.type("김")
        result.append(("filter 80x24", filtered))

        var detail = list(width: 120, height: 40)
        detail.press(.char("G"))
        let effects = detail.press(.enter)
        var card = SampleCards.card(mixedPage().cards.last!)
        card.fields.bio =
            "Line one of a long biography that goes on and on across the whole width of the screen and then some more.\nSecond line: \u{1B}[31mred?\u{1B}[0m 김민지님 안녕하세요 🦊"
        card.fields.address = "\u{202E}reversed street 7"
        detail.answer(effects) { _ in .success(.card(card)) }
        detail.send(.log(LogLine(id: 6, time: SampleCards.epoch, kind: .request, method: "GET", path: "/card/long")))
        detail.send(.log(hostileLogLine()))
        detail.press(.char("l"))
        result.append(("detail 120x40", detail))

        var wide = list(width: 120, height: 40)
        wide.send(
            .log(
                LogLine(
                    id: 6, time: SampleCards.epoch, kind: .request, method: "GET", path: "/cards?offset=0&limit=100")))
        wide.send(.log(hostileLogLine()))
        wide.press(.char("l"), .char("s"))
        result.append(("list 120x40", wide))

        var notLoaded = AppState(server: testServer, email: testEmail, password: "pw", width: 80, height: 24)
        let loginEffects0 = notLoaded.press(.enter)
        let pageEffects = notLoaded.answer(loginEffects0) { _ in
            .success(.loggedIn(email: testEmail, server: testServer))
        }
        notLoaded.answer(pageEffects) { _ in
            .failure(UIFailure(.server(status: 503), message: "The server failed (E99)"))
        }
        result.append(("list not loaded 80x24", notLoaded))

        var small = list(width: 59, height: 14)
        small.press(.char("j"))
        result.append(("too small 59x14", small))

        var login = AppState(server: testServer, email: testEmail, password: "secret", width: 80, height: 24)
        let loginEffects = login.press(.enter)
        login.answer(loginEffects) { _ in
            .failure(UIFailure(.cannotConnect(url: testServer), message: "connection refused"))
        }
        result.append(("login error 80x24", login))

        var conflict = list(width: 80, height: 24)
        let base = SampleCards.card(SampleCards.summary(number: 1))
        conflict.form = FormState(editing: base, returnsToDetail: false)
        conflict.screen = .form
        conflict.press(.tab)
        conflict.press(.ctrl("u"))
        conflict.type("Boss")
        let save = conflict.press(.enter)
        var theirs = base
        theirs.revision = CardRevision(9)
        theirs.fields.company = "Their Co"
        conflict.answer(save) { _ in
            .failure(UIFailure(.conflict(current: theirs), message: "changed", serverCode: "E07"))
        }
        result.append(("conflict 80x24", conflict))

        var logDetail = list(width: 80, height: 24)
        logDetail.send(.log(hostileLogLine()))
        logDetail.press(.char("l"), .tab, .enter)
        result.append(("log detail 80x24", logDetail))

        var reauth = list(width: 80, height: 24)
        reauth.send(.session(.expired(email: testEmail, server: testServer)))
        reauth.reauth?.serverCode = "E06"
        reauth.type("pw")
        result.append(("reauth 80x24", reauth))

        // The smallest screen, with the log pane open and a wrong password: the dialog covers
        // the pane rather than drawing outside its box.
        var tight = list(width: 60, height: 15)
        tight.send(.log(hostileLogLine()))
        tight.press(.char("l"))
        tight.send(.session(.expired(email: testEmail, server: testServer)))
        tight.reauth?.serverCode = "E06"
        tight.type("pw")
        let relogin = tight.press(.enter)
        tight.answer(relogin) { _ in .failure(UIFailure(.loginFailed, message: "wrong", serverCode: "E02")) }
        result.append(("reauth with log 60x15", tight))
        result.append(("filter every field 80x24", everyField(width: 80, height: 24)))
        result.append(("filter every field 64x16", everyField(width: 64, height: 16)))
        return result
    }

    /// `/` with the local cache: "sourdough" is in no column, so every row is the cache's, each
    /// with the field that matched when the list does not show it (hostile and long ones too),
    /// in the card's own text as the cache gives it.
    static func everyField(width: Int, height: Int) -> AppState {
        var state = list(width: width, height: height)
        state.searchesCache = true
        state.press(.char("/"))
        let effects = state.type("sourdough")
        let fields: [String: FieldMatch] = [
            "card-1": FieldMatch(field: .phone, excerpt: "+82 10-5550-1234"),
            "evil-1": FieldMatch(field: .bio, excerpt: "\u{1B}[31mred\u{1B}[0m Sourdough\u{07}"),
            "long": FieldMatch(field: .tags, excerpt: "Sourdough Club of the very long tag names"),
            "hindi": FieldMatch(field: .title, excerpt: "Sourdough वैज्ञानिक"),
            "card-3": FieldMatch(field: .name, excerpt: "Sourdough"),
            "card-5": FieldMatch(field: .address, excerpt: "…Rue du Pain Sourdough, Paris…"),
        ]
        state.answer(effects) { call in
            guard case .searchCache(let query) = call, query == "sourdough" else {
                return .success(.cacheMatches(query: "", ids: []))
            }
            return .success(.cacheMatches(query: query, ids: Array(fields.keys), fields: fields))
        }
        return state
    }
}

extension RenderSnapshotTests {
    /// With `CARDWALLET_RECORD_SNAPSHOTS=FILE` in the environment, writes every frame as a new
    /// `ExpectedSnapshots.swift` to FILE (to review by eye, then copy over the old one).
    @Test func recordWhenAsked() throws {
        guard let path = ProcessInfo.processInfo.environment["CARDWALLET_RECORD_SNAPSHOTS"] else { return }
        var text =
            "// Expected frames of RenderSnapshotTests.states(), as Grid.text. Review changes to these by eye.\n\n"
        text += "let expectedSnapshots: [String: String] = [\n"
        for (name, state) in Self.states() {
            let frame = Renderer.render(state).text.split(separator: "\n", omittingEmptySubsequences: false)
            text +=
                "    \"\(name)\": #\"\"\"\n" + frame.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
                + "\n    \"\"\"#,\n"
        }
        text += "]\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test(arguments: expectedSnapshots.keys.sorted())
    func snapshot(name: String) throws {
        let state = try #require(Self.states().first { $0.0 == name }?.1)
        let text = Renderer.render(state).text
        let expected = try #require(expectedSnapshots[name])
        #expect(text == expected, "\(name):\n\(text)")
    }

    @Test func everyFrameIsSafeAndWhole() {
        for (name, state) in Self.states() {
            let grid = Renderer.render(state)
            for y in 0..<grid.height {
                for x in 0..<grid.width {
                    let cell = grid[x, y]
                    let scalars = cell.character.unicodeScalars
                    #expect(
                        scalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) },
                        "\(name) has a control character at \(x),\(y)")
                    #expect(
                        !scalars.contains {
                            (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                        },
                        "\(name) has a bidi control at \(x),\(y)")
                    if cell.width == 2 {
                        #expect(grid[x + 1, y].width == 0, "\(name): wide cell without its right half at \(x),\(y)")
                    }
                    if cell.width == 0 {
                        #expect(x > 0 && grid[x - 1, y].width == 2, "\(name): orphan right half at \(x),\(y)")
                    }
                }
            }
        }
    }

    @Test func everyStateRendersAtEverySizeWithoutATrap() {
        // A resize can land on any size, including none at all; no frame may trap, and every
        // frame has the terminal's size.
        let sizes = [(0, 0), (1, 1), (2, 40), (40, 2), (59, 14), (60, 15), (61, 16), (70, 18), (100, 30), (250, 80)]
        for (name, state) in Self.states() {
            for (width, height) in sizes {
                var resized = state
                resized.send(.resize(width: width, height: height))
                let grid = Renderer.render(resized)
                #expect(grid.width == width && grid.height == height, "\(name) at \(width)x\(height)")
            }
        }
    }

    @Test func selectionIsReverseVideoNotColourAlone() {
        let state = Self.list(width: 80, height: 24)
        let grid = Renderer.render(state)
        let selectedRow = 2 + state.list.selection - state.list.scrollTop
        for x in 0..<grid.width {
            #expect(grid[x, selectedRow].style.attributes.contains(.reverse))
            #expect(!grid[x, selectedRow + 1].style.attributes.contains(.reverse))
        }
    }

    @Test func errorsHaveTheirOwnStyle() {
        var state = Self.list(width: 80, height: 24)
        state.showMessage(
            .error, FailureText.status(UIFailure(.server(status: 500), message: "boom"), doing: "Could not load cards"))
        let grid = Renderer.render(state)
        let row = state.layout.statusRow
        let styles = (0..<grid.width).map { grid[$0, row].style }
        #expect(styles.contains(Theme.error))
        #expect(grid.text.contains("│ Could not load cards: server error 500; see the log (l)"))
    }

    @Test func listFrameCostIsIndependentOfTheCardCount() {
        // Only visible rows are drawn: a million-card list renders the same cells as a small one
        // when the same cards are on screen.
        var small = AppState.loggedIn(cards: 30, width: 80, height: 24)
        var large = AppState.loggedIn(cards: 3_000, width: 80, height: 24, pageSize: 200)
        small.press(.char("j"))
        large.press(.char("j"))
        let smallGrid = Renderer.render(small)
        let largeGrid = Renderer.render(large)
        // Same visible rows (first 20 cards); only the title bar's count differs.
        #expect(smallGrid.changes(from: largeGrid).allSatisfy { $0.y == 0 })
    }

    @Test func movingTheSelectionRepaintsTwoRows() {
        var state = AppState.loggedIn(cards: 50, width: 200, height: 60)
        let before = Renderer.render(state)
        state.press(.char("j"))
        let after = Renderer.render(state)
        let rows = Set(after.changes(from: before).map(\.y))
        // The two card rows, and the title bar's position counter (1/50 → 2/50).
        #expect(rows == [0, 2, 3])
    }
}

@Suite struct SmallTerminalTests {
    @Test(arguments: [(20, 5), (30, 8), (59, 14), (12, 3)])
    func theTooSmallNoticeIsNeverCut(width: Int, height: Int) {
        var state = AppState.loggedIn(cards: 3)
        state.send(.resize(width: width, height: height))
        let text = Renderer.render(state).text
        #expect(text.contains("small"))
        #expect(!text.contains("…"), "\(text)")
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Ctrl-C"), "\(text)")
    }

    /// The image file's hint (43 columns) fits beside the field from 120 columns on, and goes
    /// on the line under it, in the input's column, on narrower screens; the bio's (longer than
    /// the room under the field at 60 columns) wraps over several lines there, losing nothing.
    @Test(arguments: [(60, false), (80, false), (120, true)])
    func formHintsWrapUnderTheFieldWhenTheyDoNotFitBeside(width: Int, beside: Bool) throws {
        var state = AppState.loggedIn(cards: 1, width: width, height: 30)
        state.press(.char("a"))
        let fields = try #require(state.form?.fields)
        func lines() -> [String] { Renderer.render(state).text.components(separatedBy: "\n") }
        let inputColumn = String(repeating: " ", count: Renderer.FormColumns.labelWidth + 1)

        state.form?.focus = fields.count - 1
        let hint = fields[fields.count - 1].kind.hint
        var shown = lines()
        let image = try #require(shown.firstIndex { $0.contains("Image file") }, "width \(width)")
        if beside {
            #expect(shown[image].contains(hint), "width \(width):\n\(shown.joined(separator: "\n"))")
        } else {
            #expect(!shown[image].contains("PNG"), "width \(width)")
            #expect(shown[image + 1].hasPrefix(inputColumn + hint), "width \(width):\n\(shown.joined(separator: "\n"))")
        }

        let bio = try #require(fields.firstIndex { $0.kind == .card(.bio) })
        state.form?.focus = bio
        let bioHint = fields[bio].kind.hint
        shown = lines()
        let field = try #require(shown.firstIndex { $0.contains("Bio") }, "width \(width)")
        let under = shown[(field + 1)...].prefix { $0.hasPrefix(inputColumn) && $0.count > inputColumn.count }
        let wrapped = under.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(wrapped.joined(separator: " ") == bioHint, "width \(width):\n\(shown.joined(separator: "\n"))")
        #expect(width > 60 || wrapped.count > 1, "wrapped at 60 columns")
    }
}
