import CardModels
import Testing

@testable import CardWalletUI

/// The card's picture in the detail view, the QR code over it and the kept vCard lines.
@Suite struct PictureAndQRTests {
    /// Logged in at `width`×`height` with pictures drawn as half blocks, on card 0 (which has an
    /// image), whole; returns the state and the effects of the last step.
    static func onCardWithImage(width: Int = 100, height: Int = 30) -> (AppState, [Effect]) {
        var state = AppState.loggedIn(cards: 3, width: width, height: height)
        state.pictures = .halfBlocks
        var effects = state.press(.enter)
        effects = state.answer(effects) { call in
            if case .loadCard(let id) = call, id == "card-0" {
                return .success(.card(SampleCards.card(SampleCards.summary(number: 0))))
            }
            return .failure(UIFailure(.other, message: "not in this test"))
        }
        return (state, effects)
    }

    static func calls(_ effects: [Effect]) -> [(CallID, AppCall)] {
        effects.compactMap { if case .perform(let id, let call) = $0 { (id, call) } else { nil } }
    }

    /// A picture of `box`'s size, one colour, so its cells are easy to find.
    static func picture(_ box: PictureBox) -> TerminalPicture {
        let cell = PictureCell("▀", foreground: .rgb(200, 10, 10), background: .rgb(10, 10, 200))
        return TerminalPicture(
            size: box, content: .cells(Array(repeating: Array(repeating: cell, count: box.columns), count: box.rows)))
    }

    @Test func theCardsPictureIsAskedForOnceAndDrawnBesideTheFields() throws {
        var (state, _) = Self.onCardWithImage()
        // Opening asks for the picture at the box the layout gives it (the summary has an image).
        let layout = state.detailLayout
        let box = try #require(layout.pictureBox)
        #expect(box.columns == 39 && layout.textWidth == 100 - 39 - 2)
        #expect(state.detail?.picture == .loading(PictureRequest(revision: CardRevision(1), box: box)))
        let frame = Renderer.render(state)
        #expect(frame.text.contains("Loading the picture…"))
        // Another key does not ask again.
        #expect(Self.calls(state.press(.char("j"))).isEmpty)
        // The picture arrives: its cells are drawn at the layout's place, the fields wrap left of it.
        let id = try #require(
            state.pending.first {
                $0.value.route == .detail(.picture(PictureRequest(revision: CardRevision(1), box: box)))
            }?.key)
        state.send(.completed(id, .success(.picture(Self.picture(PictureBox(columns: box.columns, rows: 10))))))
        let grid = Renderer.render(state)
        let cell = grid[layout.pictureX, layout.pictureY]
        #expect(
            cell.character == "▀" && cell.style.foreground == .rgb(200, 10, 10)
                && cell.style.background == .rgb(10, 10, 200))
        #expect(grid[layout.pictureX - 1, layout.pictureY].style.foreground == nil)
        // A resize asks for a picture of the new size; the old one stays until it comes.
        let resized = state.send(.resize(width: 120, height: 30))
        let asked = Self.calls(resized).map(\.1)
        let newBox = try #require(state.detailLayout.pictureBox)
        #expect(asked == [.cardPicture(id: "card-0", revision: CardRevision(1), box: newBox)])
        #expect(newBox.columns == 47)
    }

    @Test func aPictureThatCannotBeShownSaysWhyInItsPlace() throws {
        var (state, _) = Self.onCardWithImage()
        let box = try #require(state.detailLayout.pictureBox)
        let id = try #require(
            state.pending.first {
                $0.value.route == .detail(.picture(PictureRequest(revision: CardRevision(1), box: box)))
            }?.key)
        state.send(
            .completed(
                id, .failure(UIFailure(.other, message: "The image cannot be decoded: not a PNG or JPEG\u{1B}[2J"))))
        let text = Renderer.render(state).text
        #expect(text.contains("The image cannot be decoded"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func withoutPicturesTheTextTakesTheWholeWidthAndTheImageLineSaysWhy() throws {
        var state = AppState.loggedIn(cards: 1, width: 100, height: 30)
        state.pictures = .off("NO_COLOR is set")
        let effects = state.press(.enter)
        #expect(!Self.calls(effects).contains { if case .cardPicture = $1 { true } else { false } })
        #expect(state.detailLayout.pictureBox == nil && state.detailLayout.textWidth == 100)
        state.answer(effects) { _ in .success(.card(SampleCards.card(SampleCards.summary(number: 0)))) }
        #expect(Renderer.render(state).text.contains("not shown: NO_COLOR is set"))
    }

    @Test func qShowsTheCardAsAQRCodeInExplicitColoursAndAnyKeyClosesIt() throws {
        var (state, _) = Self.onCardWithImage(width: 80, height: 40)
        let effects = state.press(.char("Q"))
        let (id, call) = try #require(Self.calls(effects).last)
        let card = try #require(state.detail?.card)
        #expect(call == .qrCode(card, fits: PictureBox(columns: 80, rows: 39)))
        #expect(Renderer.render(state).text.contains("making it…"))
        // A 21×21 symbol (version 1) with a finder pattern in its top-left corner.
        var modules = Array(repeating: false, count: 21 * 21)
        for y in 0..<7 {
            for x in 0..<7 where x == 0 || y == 0 || x == 6 || y == 6 || (2...4).contains(x) && (2...4).contains(y) {
                modules[y * 21 + x] = true
            }
        }
        state.send(
            .completed(id, .success(.qrSymbol(QRSymbol(size: 21, modules: modules, note: "to fit, without the bio")))))
        let grid = Renderer.render(state)
        #expect(
            grid.text.contains(
                "QR code of “\(card.fields.name)” (vCard 3.0) · to fit, without the bio · any key closes"))
        // No key hints under it: the code may take that row.
        #expect(!grid.text.contains("Q QR"))
        // 29 modules with the quiet zone: 29 columns, 15 rows, centred.
        let left = (80 - 29) / 2
        let top = 1 + (39 - 15) / 2
        let corner = grid[left, top]
        #expect(corner.character == "█")  // two light modules of the quiet zone
        #expect(corner.style.foreground == .rgb(255, 255, 255) && corner.style.background == .rgb(0, 0, 0))
        // Cell row 2 holds module rows 0 and 1: at x 0 both dark (a space), at x 1 dark above
        // the light ring (▄: the light lower half is drawn); module rows 6 and 7 at x 2: the
        // finder's dark edge above the light separator.
        #expect(grid[left + 4, top + 2].character == " ")
        #expect(grid[left + 5, top + 2].character == "▄")
        #expect(grid[left + 6, top + 5].character == "▄")
        // Any key closes it, and does nothing else.
        let closing = state.press(.char("d"))
        #expect(state.detail?.qr == nil && state.modal == nil && Self.calls(closing).isEmpty)
    }

    @Test func qPressedWhileTheCardLoadsShowsTheCodeOnceItIsHere() throws {
        var state = AppState.loggedIn(cards: 2, width: 80, height: 40)
        let opening = state.press(.enter)
        #expect(!Self.calls(state.press(.char("Q"))).contains { if case .qrCode = $1 { true } else { false } })
        #expect(Renderer.render(state).text.contains("making it…"))
        let loaded = state.answer(opening) { _ in .success(.card(SampleCards.card(SampleCards.summary(number: 0)))) }
        #expect(Self.calls(loaded).contains { if case .qrCode = $1 { true } else { false } })
        // When the card cannot be loaded, the code is not waited for.
        state.press(.escape, .char("q"), .char("j"))
        let again = state.press(.enter)
        state.press(.char("Q"))
        state.answer(again) { _ in .failure(UIFailure(.server(status: 503), message: "server error 503")) }
        #expect(state.detail?.qr == nil)
    }

    @Test func aTerminalTooSmallForTheCodeSaysHowLargeItMustBe() throws {
        var (state, _) = Self.onCardWithImage(width: 60, height: 20)
        let (id, _) = try #require(Self.calls(state.press(.char("Q"))).last)
        state.send(
            .completed(id, .success(.qrSymbol(QRSymbol(size: 57, modules: Array(repeating: true, count: 57 * 57))))))
        let text = Renderer.render(state).text
        #expect(text.contains("The terminal is too small for this QR code."))
        #expect(text.contains("Make it at least 65 columns by 34 rows (it is 60×20)"))
        #expect(!text.contains("█"))
    }

    @Test func aQRCodeThatCannotBeMadeSaysSo() throws {
        var (state, _) = Self.onCardWithImage(width: 80, height: 40)
        let (id, _) = try #require(Self.calls(state.press(.char("Q"))).last)
        state.send(
            .completed(
                id, .failure(UIFailure(.other, message: "The card's name, email and phone are too long for a QR code."))
            ))
        #expect(Renderer.render(state).text.contains("too long for a QR code"))
        state.press(.escape)
        #expect(state.detail?.qr == nil && state.screen == .detail)
    }

    @Test func aCardShowsTheGroupsItBelongsToEscaped() throws {
        var state = AppState.loggedIn(cards: 2, width: 80, height: 40)
        var card = SampleCards.card(SampleCards.summary(number: 1))
        card.groups = ["Analysts", "Poets\u{07}"]
        let effects = state.press(.char("j"), .enter)
        _ = state.answer(effects) { _ in .success(.card(card)) }
        let text = Renderer.render(state).text
        #expect(text.contains("Groups") && text.contains("Analysts, Poets^G"))
        #expect(!text.contains("\u{07}"))
    }

    @Test func keptVCardLinesShowReadOnlyAndEscaped() throws {
        var state = AppState.loggedIn(cards: 2, width: 80, height: 40)
        var card = SampleCards.card(SampleCards.summary(number: 1))
        card.fields.vcardProperties = ["TEL;TYPE=FAX:+1 555 0100", "X-EVIL:\u{1B}]52;c;cm0=\u{07}"]
        var effects = state.press(.char("j"), .enter)
        effects = state.answer(effects) { _ in .success(.card(card)) }
        let (id, call) = try #require(Self.calls(effects).last)
        #expect(call == .vcardLines(card.fields.vcardProperties))
        #expect(Renderer.render(state).text.contains("Kept from vCard (read-only, written back on export)"))
        state.send(.completed(id, .success(.vcardText(["Fax: +1 555 0100", "X-EVIL: \u{1B}]52;c;cm0=\u{07}"]))))
        let text = Renderer.render(state).text
        #expect(text.contains("Fax: +1 555 0100"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        // The form edits the card's fields only; the kept lines go back unchanged with a save.
        state.press(.char("e"))
        #expect(state.form?.base.vcardProperties == card.fields.vcardProperties)
    }
}
