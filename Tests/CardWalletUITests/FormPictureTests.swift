import CardModels
import Testing

@testable import CardWalletUI

/// The add form's picture of its image file: asked for after a scan or once the Image field is
/// left, placed beside (or below) the fields, a note when it cannot be made, gone with the form.
@Suite struct FormPictureTests {
    /// The add form at `width`×`height` with pictures drawn as half blocks, filled by a scan of
    /// a photo whose upload copy is `/tmp/upright.jpg`; returns the state and the scan's effects.
    static func scanned(width: Int = 100, height: Int = 30) throws -> (AppState, [Effect]) {
        var state = AppState.loggedIn(cards: 1, width: width, height: height)
        state.pictures = .halfBlocks
        state.press(.char("a"), .ctrl("o"))
        state.type("~/card.jpg")
        let (id, _) = try #require(PictureAndQRTests.calls(state.press(.enter)).last)
        let result = ScanResult(
            fields: CardFields(name: "Jane Doe", company: "Acme Inc."), notes: [], imagePath: "/tmp/upright.jpg")
        let effects = state.send(.completed(id, .success(.scanned(result))))
        return (state, effects)
    }

    static func pictureCalls(_ effects: [Effect]) -> [AppCall] {
        PictureAndQRTests.calls(effects).map(\.1).filter { if case .filePicture = $0 { true } else { false } }
    }

    /// The id of the form's picture call for `box`.
    static func pictureCall(_ state: AppState, path: String, box: PictureBox) throws -> CallID {
        let route = CallRoute.form(.picture(PictureRequest(path: path, box: box)))
        return try #require(state.pending.first { $0.value.route == route }?.key)
    }

    @Test func aScannedPhotoIsAskedForOnceAndDrawnBesideTheFields() throws {
        var (state, effects) = try Self.scanned()
        let layout = state.formLayout
        let box = try #require(layout.pictureBox)
        #expect(
            box.columns == 39 && layout.textWidth == 100 - 39 - 2 && layout.pictureY == layout.fieldsBottom - box.rows)
        #expect(Self.pictureCalls(effects) == [.filePicture(path: "/tmp/upright.jpg", box: box)])
        #expect(Renderer.render(state).text.contains("Loading the picture…"))
        // Moving between the fields does not ask again.
        #expect(Self.pictureCalls(state.press(.tab, .tab)).isEmpty)
        let id = try Self.pictureCall(state, path: "/tmp/upright.jpg", box: box)
        state.send(
            .completed(id, .success(.picture(PictureAndQRTests.picture(PictureBox(columns: box.columns, rows: 8))))))
        let grid = Renderer.render(state)
        let cell = grid[layout.pictureX, layout.pictureY]
        #expect(cell.character == "▀" && cell.style.foreground == .rgb(200, 10, 10))
        // The fields are still there, left of it; the name field keeps what the scan read.
        #expect(grid.text.contains("Jane Doe"))
        #expect(grid[layout.pictureX - 1, layout.pictureY].style.foreground == nil)
        // A resize asks for a picture of the new size.
        let resized = state.send(.resize(width: 120, height: 30))
        let newBox = try #require(state.formLayout.pictureBox)
        #expect(newBox != box && Self.pictureCalls(resized) == [.filePicture(path: "/tmp/upright.jpg", box: newBox)])
    }

    @Test func aTypedPathMakesAPictureOnlyOnceTheFieldIsLeft() throws {
        var state = AppState.loggedIn(cards: 1, width: 100, height: 30)
        state.pictures = .halfBlocks
        state.press(.char("a"))
        let index = try #require(state.form?.imageFieldIndex)
        #expect(state.formLayout.pictureBox == nil)
        state.press(.backTab)
        #expect(state.form?.focus == index)
        // Typing asks for nothing, key by key.
        #expect(Self.pictureCalls(state.type("~/photo.png")).isEmpty)
        #expect(state.form?.picturePath == nil)
        // Leaving the field asks once for the whole path.
        let left = state.press(.tab)
        let box = try #require(state.formLayout.pictureBox)
        #expect(Self.pictureCalls(left) == [.filePicture(path: "~/photo.png", box: box)])
        // Emptying the field takes the picture away.
        state.press(.backTab)
        for _ in 0..<11 { state.press(.backspace) }
        state.press(.tab)
        #expect(
            state.form?.picturePath == nil && state.form?.picture == PictureSlot.none
                && state.formLayout.pictureBox == nil)
    }

    @Test func aFileThatCannotBeShownSaysWhyInThePicturesPlace() throws {
        var (state, _) = try Self.scanned()
        let box = try #require(state.formLayout.pictureBox)
        let id = try Self.pictureCall(state, path: "/tmp/upright.jpg", box: box)
        state.send(
            .completed(
                id, .failure(UIFailure(.other, message: "No picture: /tmp/upright.jpg cannot be read.\u{1B}[2J"))))
        let text = Renderer.render(state).text
        #expect(text.contains("No picture: /tmp/upright.jpg"))
        #expect(!text.contains("\u{1B}"))
        #expect(state.form?.fields.first?.input.text == "Jane Doe")
    }

    @Test func onANarrowTerminalThePictureGoesBelowTheFields() throws {
        let (state, effects) = try Self.scanned(width: 60, height: 30)
        let layout = state.formLayout
        let box = try #require(layout.pictureBox)
        #expect(layout.textWidth == 60 && box.columns == 58 && box.rows == FormLayout.maximumRowsBelow)
        #expect(layout.pictureY > layout.fieldsBottom && layout.pictureX == 1)
        #expect(Self.pictureCalls(effects) == [.filePicture(path: "/tmp/upright.jpg", box: box)])
        // The fields stop above it.
        let grid = Renderer.render(state)
        #expect(grid.text.contains("Loading the picture…"))
    }

    @Test func withoutPicturesNothingIsAskedFor() throws {
        var state = AppState.loggedIn(cards: 1, width: 100, height: 30)
        state.pictures = .off("NO_COLOR is set")
        state.press(.char("a"), .backTab)
        state.type("/tmp/x.png")
        #expect(Self.pictureCalls(state.press(.tab)).isEmpty && state.formLayout.pictureBox == nil)
    }

    @Test func closingTheFormClearsThePictureAndFreesItInTheTerminal() throws {
        var (state, _) = try Self.scanned()
        let box = try #require(state.formLayout.pictureBox)
        let id = try Self.pictureCall(state, path: "/tmp/upright.jpg", box: box)
        let cells = [[PictureCell("\u{10EEEE}", foreground: .indexed(16), background: nil)]]
        let kitty = TerminalPicture(
            size: PictureBox(columns: 1, rows: 1), content: .cells(cells), transmit: [7, 7], release: [9, 9])
        // The transmission is written when it arrives.
        #expect(state.send(.completed(id, .success(.picture(kitty)))).contains(.writeToTerminal([7, 7])))
        // Esc asks (the scan changed the form); yes closes it and frees the picture.
        state.press(.escape)
        let closed = state.press(.char("y"))
        #expect(state.form == nil && state.screen == .list)
        #expect(closed.contains(.writeToTerminal([9, 9])))
    }
}
