import CardModels
import Testing

@testable import CardWalletUI

@Suite struct FormReducerTests {
    func type(_ text: String, into form: inout FormState) {
        for character in text { _ = form.reduce(.text(.insert, typed: character)) }
    }

    func index(of field: CardField, in form: FormState) -> Int {
        form.fields.firstIndex { $0.kind == .card(field) } ?? -1
    }

    @Test func problemsShowAsYouTypeOnlyOnEditedFields() {
        var form = FormState()
        #expect(form.visibleProblem(at: 0) == nil)
        type("x", into: &form)
        _ = form.reduce(.text(.deleteBackward, typed: nil))
        #expect(form.visibleProblem(at: 0) == "is required")
        let email = index(of: .email, in: form)
        form.focus = email
        type("bad", into: &form)
        #expect(form.visibleProblem(at: email) == "is not an email address")
        type("@x.io", into: &form)
        #expect(form.visibleProblem(at: email) == nil)
        #expect(form.visibleProblem(at: index(of: .phone, in: form)) == nil)
    }

    @Test func saveWithProblemsFocusesTheFirstAndSaysHowMany() {
        var form = FormState()
        let birthday = index(of: .birthday, in: form)
        form.focus = birthday
        type("2023-02-30", into: &form)
        let effects = form.reduce(.command(.save))
        #expect(effects == [.message(.error, "Fix the 2 marked fields first")])
        #expect(form.showsAllProblems)
        #expect(form.focus == 0)
        #expect(!form.isSaving)
        #expect(form.visibleProblem(at: birthday) == "must be a real date as YYYY-MM-DD")
    }

    @Test func addSavesTheTypedFieldsAndImage() {
        var form = FormState()
        type("  Kim  ", into: &form)
        form.focus = index(of: .tags, in: form)
        type("a, b", into: &form)
        form.focus = form.fields.count - 1
        type("/tmp/me.png", into: &form)
        let effects = form.reduce(.command(.save))
        #expect(
            effects == [
                .call(.createCard(CardFields(name: "Kim", tags: ["a", "b"]), imagePath: "/tmp/me.png"), then: .save)
            ])
        #expect(form.isSaving)
        #expect(form.reduce(.command(.save)).isEmpty)
    }

    @Test func tabAndShiftTabWrapAround() {
        var form = FormState()
        _ = form.reduce(.command(.previousField))
        #expect(form.focus == form.fields.count - 1)
        _ = form.reduce(.command(.nextField))
        #expect(form.focus == 0)
    }

    @Test func escapeAsksOnlyWhenSomethingChanged() {
        var form = FormState()
        #expect(form.reduce(.command(.cancel)) == [.leave(discarding: false)])
        type("x", into: &form)
        #expect(form.reduce(.command(.cancel)) == [.leave(discarding: true)])
    }

    @Test func editCarriesTheVersionAndAConflictShowsTheServersValues() throws {
        let card = SampleCards.card(SampleCards.summary(number: 1))
        var form = FormState(editing: card, returnsToDetail: true)
        let title = index(of: .title, in: form)
        let company = index(of: .company, in: form)
        let phone = index(of: .phone, in: form)
        form.focus = title
        _ = form.reduce(.text(.deleteToStart, typed: nil))
        type("Boss", into: &form)
        form.focus = company
        _ = form.reduce(.text(.deleteToStart, typed: nil))
        type("Mine Inc", into: &form)
        var effects = form.reduce(.command(.save))
        var mine = card.fields
        mine.title = "Boss"
        mine.company = "Mine Inc"
        #expect(effects == [.call(.updateCard(id: card.id, fields: mine, revision: card.revision), then: .save)])

        // Meanwhile someone else changed the company and removed the phone.
        var theirs = card
        theirs.revision = CardRevision((card.revision.number ?? 0) + 1)
        theirs.fields.company = "Elsewhere"
        theirs.fields.phone = nil
        effects = form.reduce(.saveFailed(UIFailure(.conflict(current: theirs), message: "changed")))
        #expect(form.conflict == theirs)
        #expect(!form.isSaving)
        #expect(effects.count == 1)
        // Nothing typed is lost: changed on both sides, the user's text stays and the server's
        // shows beside it; changed only by the user, the server's old value shows beside it.
        #expect(form.fields[title].input.text == "Boss")
        #expect(form.fields[company].input.text == "Mine Inc")
        #expect(form.serverValue(at: title) == card.fields.title)
        #expect(form.serverValue(at: company) == "Elsewhere")
        // Changed only on the server: the field takes the server's value, so saving cannot
        // undo the other person's change.
        #expect(form.fields[phone].input.text == "")
        #expect(form.serverValue(at: phone) == nil)
        #expect(form.takenFromServer == [phone])
        #expect(form.serverValue(at: index(of: .name, in: form)) == nil)
        #expect(form.serverText(at: index(of: .name, in: form)) == card.fields.name)

        // Keep mine: saving again goes against the server's version, with its phone.
        effects = form.reduce(.command(.save))
        mine.phone = nil
        #expect(effects == [.call(.updateCard(id: card.id, fields: mine, revision: theirs.revision), then: .save)])
        _ = form.reduce(.saveFailed(UIFailure(.conflict(current: theirs), message: "changed")))

        // Take theirs for one field, then for all.
        form.focus = company
        _ = form.reduce(.command(.takeServerField))
        #expect(form.fields[form.focus].input.text == "Elsewhere")
        _ = form.reduce(.command(.takeServerAll))
        #expect(form.conflict == nil)
        #expect(form.takenFromServer.isEmpty)
        #expect(form.cardFields == theirs.fields)
        #expect(form.mode == .edit(id: card.id, revision: theirs.revision))
        #expect(!form.isDirty)
    }

    @Test func bioAndAddressHoldSeveralLines() throws {
        var state = AppState.loggedIn(cards: 1, width: 100, height: 36)
        state.press(.char("a"))
        state.type("Kim")
        let bio = try #require(state.form?.fields.firstIndex { $0.kind == .card(.bio) })
        state.form?.focus = bio
        state.type("first")
        #expect(state.press(.enter).isEmpty, "Enter starts a new line in Bio")
        state.type("second")
        #expect(state.form?.fields[bio].input.text == "first\nsecond")
        state.press(.up)
        let position = try #require(state.form?.fields[bio].input.cursorPosition)
        #expect(position.line == 0 && position.column == 5)
        state.press(.up)
        #expect(state.form?.focus == bio - 1, "from the first line ↑ goes to the field above")
        state.press(.down, .down, .down)
        #expect(state.form?.focus == bio + 1, "from the last line ↓ goes to the field below")
        let text = Renderer.render(state).text
        #expect(text.contains("first") && text.contains("second"))
        // Enter in a one-line field still saves; Ctrl-S saves from Bio.
        state.form?.focus = bio
        let save = state.press(.ctrl("s"))
        guard case .perform(_, .createCard(let fields, _))? = save.last else {
            Issue.record("no save: \(save)")
            return
        }
        #expect(fields.bio == "first\nsecond")
    }

    @Test func aLocalImageProblemCarriesNoServerCode() {
        var form = FormState()
        type("Kim", into: &form)
        _ = form.reduce(.command(.save))
        let effects = form.reduce(.saveFailed(UIFailure(.localImage(problem: "there is no such file"), message: "x")))
        #expect(
            effects == [.message(.error, "The image file cannot be used: there is no such file. Nothing was sent.")])
        #expect(form.visibleProblem(at: form.fields.count - 1) == "there is no such file")
        #expect(form.focus == form.fields.count - 1)
        #expect(!effects.description.contains("E0"))
    }

    @Test func onlyFieldsBothSidesChangedAreMarkedAsConflicts() {
        let card = SampleCards.card(SampleCards.summary(number: 1))
        var form = FormState(editing: card, returnsToDetail: false)
        form.focus = index(of: .title, in: form)
        type("!", into: &form)
        form.focus = index(of: .company, in: form)
        type("?", into: &form)
        var theirs = card
        theirs.revision = CardRevision((theirs.revision.number ?? 0) + 1)
        theirs.fields.company = "Theirs"
        theirs.fields.phone = "+82 10 1234"
        _ = form.reduce(.saveFailed(UIFailure(.conflict(current: theirs), message: "changed")))
        #expect(form.conflictMark(at: index(of: .title, in: form)) == .changedByYou)
        #expect(form.conflictMark(at: index(of: .company, in: form)) == .changedByBoth)
        #expect(form.conflictMark(at: index(of: .phone, in: form)) == .takenFromServer)
        #expect(form.conflictMark(at: index(of: .name, in: form)) == .same)
    }

    @Test func editingKeepsWhatTheFormDoesNotShow() {
        var card = SampleCards.card(SampleCards.summary(number: 2))
        card.fields.vcardProperties = ["TEL;TYPE=FAX:+1 555 0100", "X-SOCIAL:@kim"]
        var form = FormState(editing: card, returnsToDetail: false)
        form.focus = index(of: .title, in: form)
        type("!", into: &form)
        guard case .call(.updateCard(_, let fields, _), _)? = form.reduce(.command(.save)).first else {
            Issue.record("no update")
            return
        }
        #expect(fields.vcardProperties == card.fields.vcardProperties)
        // After a conflict the server's kept lines are saved, not the ones the form opened with.
        var theirs = card
        theirs.revision = CardRevision((theirs.revision.number ?? 0) + 1)
        theirs.fields.vcardProperties = ["X-SOCIAL:@kim2"]
        _ = form.reduce(.saveFailed(UIFailure(.conflict(current: theirs), message: "changed")))
        #expect(form.cardFields.vcardProperties == ["X-SOCIAL:@kim2"])
    }

    @Test func aConflictWithoutTheCardFetchesIt() {
        let card = SampleCards.card(SampleCards.summary(number: 2))
        var form = FormState(editing: card, returnsToDetail: false)
        _ = form.reduce(.command(.save))
        let effects = form.reduce(.saveFailed(UIFailure(.conflict(current: nil), message: "changed")))
        #expect(effects.first == .call(.loadCard(id: card.id), then: .fetchServerVersion(id: card.id)))
        _ = form.reduce(.finished(.fetchServerVersion(id: card.id), .success(.card(card))))
        #expect(form.conflict == card)
    }

    @Test func serverProblemsShowUntilTheFieldIsEdited() {
        var form = FormState()
        type("Kim", into: &form)
        _ = form.reduce(.command(.save))
        _ = form.reduce(.saveFailed(UIFailure(.validation(fields: ["name": "is taken"]), message: "invalid")))
        #expect(form.visibleProblem(at: 0) == "is taken")
        #expect(form.reduce(.command(.save)) == [.message(.error, "Fix the marked field first")])
        type("!", into: &form)
        #expect(form.visibleProblem(at: 0) == nil)
    }

    @Test func imageFailuresLandOnTheImageField() {
        var form = FormState()
        type("Kim", into: &form)
        _ = form.reduce(.command(.save))
        _ = form.reduce(.saveFailed(UIFailure(.unsupportedMedia, message: "not an image", serverCode: "E09")))
        let image = form.fields.count - 1
        #expect(form.focus == image)
        #expect(form.visibleProblem(at: image) == "must be a PNG or JPEG image (E09)")
        _ = form.reduce(.saveFailed(UIFailure(.tooLarge, message: "too big", serverCode: "E08")))
        #expect(form.visibleProblem(at: image) == "is too large for the server (E08)")
        // A server that sends no code (CardDAV) is named no code.
        _ = form.reduce(.saveFailed(UIFailure(.tooLarge, message: "413")))
        #expect(form.visibleProblem(at: image) == "is too large for the server")
    }
}

@Suite struct DetailAndConfirmReducerTests {
    @Test func detailScrollsWithinItsLines() {
        var detail = DetailState(summary: SampleCards.summary(number: 0))
        #expect(detail.isLoading)
        #expect(
            detail.reduce(.command(.edit), viewport: 5, lineCount: 12) == [.message(.info, "Still loading the card…")])
        let card = SampleCards.card(SampleCards.summary(number: 0))
        _ = detail.reduce(.loaded(card), viewport: 5, lineCount: 12)
        #expect(!detail.isLoading)
        _ = detail.reduce(.command(.scroll(.down)), viewport: 5, lineCount: 12)
        #expect(detail.scroll == 1)
        _ = detail.reduce(.command(.scroll(.bottom)), viewport: 5, lineCount: 12)
        #expect(detail.scroll == 7)
        _ = detail.reduce(.command(.scroll(.pageDown)), viewport: 5, lineCount: 12)
        #expect(detail.scroll == 7)
        _ = detail.reduce(.command(.scroll(.top)), viewport: 5, lineCount: 12)
        #expect(detail.scroll == 0)
        #expect(detail.reduce(.command(.edit), viewport: 5, lineCount: 12) == [.edit(card)])
        #expect(detail.reduce(.command(.delete), viewport: 5, lineCount: 12) == [.delete(card.summary)])
        #expect(detail.reduce(.command(.back), viewport: 5, lineCount: 12) == [.back])
    }

    @Test func confirmDefaultsToNo() {
        var question = ConfirmState(.discardChanges)
        #expect(question.reduce(.choose) == false)
        #expect(question.reduce(.toggle) == nil)
        #expect(question.isYesHighlighted)
        #expect(question.reduce(.choose) == true)
        #expect(question.reduce(.no) == false)
        #expect(question.reduce(.yes) == true)
    }
}
