import CardModels
import Testing

@testable import CardWalletUI

/// Export and import from the list and the card, and the add form's scan of a paper card.
@Suite struct TransferAndScanTests {
    static func calls(_ effects: [Effect]) -> [(CallID, AppCall)] {
        effects.compactMap { if case .perform(let id, let call) = $0 { (id, call) } else { nil } }
    }

    static func cancels(_ effects: [Effect]) -> [CallID] {
        effects.compactMap { if case .cancel(let id) = $0 { id } else { nil } }
    }

    @Test func xExportsTheSelectedCardToTheFileAndFormatChosen() throws {
        var state = AppState.loggedIn(cards: 3)
        state.press(.char("j"), .char("x"))
        let name = SampleCards.summary(number: 1).name
        #expect(state.transfer?.stage == .exportPrompt)
        #expect(Renderer.render(state).text.contains("Export “\(name)” as vCard 3.0"))
        // Tab changes the format and the extension with it.
        state.press(.tab, .tab)
        #expect(state.transfer?.format == .csv)
        #expect(state.transfer?.path.text.hasSuffix(".csv") == true)
        state.press(.ctrl("u"))
        state.type("/tmp/out.csv")
        let (id, call) = try #require(Self.calls(state.press(.enter)).last)
        #expect(call == .exportCards(ExportRequest(cards: .ids(["card-1"]), path: "/tmp/out.csv", format: .csv)))
        // The file exists: a second Enter replaces it.
        state.send(.completed(id, .failure(UIFailure(.fileExists(path: "/tmp/out.csv"), message: "exists"))))
        #expect(Renderer.render(state).text.contains("exists already: Enter replaces it"))
        let (again, replacing) = try #require(Self.calls(state.press(.enter)).last)
        #expect(
            replacing
                == .exportCards(
                    ExportRequest(cards: .ids(["card-1"]), path: "/tmp/out.csv", format: .csv, replacing: true)))
        state.send(.completed(again, .success(.exported(count: 1, path: "/tmp/out.csv"))))
        #expect(state.transfer == nil)
        #expect(state.message?.text == "Exported 1 card to /tmp/out.csv (Google CSV)")
    }

    @Test func capitalXExportsEveryCardAndEscStopsTheWrite() throws {
        var state = AppState.loggedIn(cards: 3)
        state.press(.char("X"))
        let (id, call) = try #require(Self.calls(state.press(.enter)).last)
        #expect(call == .exportCards(ExportRequest(cards: .all, path: "~/cards.vcf", format: .vcard3)))
        #expect(Self.cancels(state.press(.escape)) == [id])
        state.send(.completed(id, .failure(UIFailure(.cancelled, message: "stopped"))))
        #expect(state.transfer?.stage == .exportPrompt)
        #expect(state.transfer?.problem == "stopped: nothing was written")
    }

    static func preview() -> ImportPreview {
        ImportPreview(
            planID: 7, file: "~/in.vcf", counts: ImportCounts(created: 2, updated: 1, unchanged: 1, skipped: 1),
            entries: [
                .init(.create, name: "Ada Lovelace", detail: "new, with a photo"),
                .init(.create, name: "\u{1B}[2JEvil"),
                .init(.update, name: "김민지", detail: "fields change"), .init(.unchanged, name: "Kim Min-ji"),
                .init(.skip, name: "", detail: "in.vcf:40: no name"),
            ])
    }

    @Test func iPreviewsTheImportThenRunsItWithProgressAndEscStopsBetweenCards() throws {
        var state = AppState.loggedIn(cards: 3, width: 80, height: 30)
        state.press(.char("i"))
        #expect(state.transfer?.stage == .importPrompt)
        // Enter without a file says what to type; nothing is read.
        #expect(Self.calls(state.press(.enter)).isEmpty)
        #expect(state.transfer?.problem == "type the vCard file (or folder) to read")
        state.type("~/in.vcf")
        let (readID, read) = try #require(Self.calls(state.press(.enter)).last)
        #expect(read == .previewImport(path: "~/in.vcf"))
        #expect(Renderer.render(state).text.contains("Reading the file and comparing it with the wallet"))
        state.send(.completed(readID, .success(.importPreview(Self.preview()))))
        let shown = Renderer.render(state).text
        #expect(shown.contains("2 to create, 1 to update, 1 unchanged, 1 skipped"))
        #expect(shown.contains("Ada Lovelace") && shown.contains("in.vcf:40: no name") && shown.contains("(no name)"))
        #expect(!shown.contains("\u{1B}"))
        // Enter imports, with a bar counting the cards.
        let (runID, run) = try #require(Self.calls(state.press(.enter)).last)
        #expect(run == .runImport(planID: 7))
        #expect(run.isChange)
        state.send(.progress(runID, CallProgress(done: 2, total: 5)))
        #expect(Renderer.render(state).text.contains("Importing… 2 of 5 cards"))
        // Esc cancels the call; the runner stops between two cards and reports.
        #expect(Self.cancels(state.press(.escape)) == [runID])
        #expect(Renderer.render(state).text.contains("Stopping after the card in progress…"))
        let report = ImportReport(counts: ImportCounts(created: 2, updated: 1), planned: 5, cancelled: true)
        let reload = state.send(.completed(runID, .success(.imported(report))))
        #expect(Self.calls(reload).contains { if case .loadCards = $1 { true } else { false } })
        #expect(state.message?.text == "Import stopped between two cards: 2 created, 1 updated, 0 unchanged, 0 skipped")
        #expect(Renderer.render(state).text.contains("Stopped by Esc: 2 created"))
        state.press(.enter)
        #expect(state.transfer == nil)
    }

    @Test func aPreviewThatChangesNothingSendsNothingAndEscCancelsAPreview() throws {
        var state = AppState.loggedIn(cards: 1)
        state.press(.char("i"))
        state.type("same.vcf")
        var (id, _) = try #require(Self.calls(state.press(.enter)).last)
        let unchanged = ImportPreview(planID: 1, file: "same.vcf", counts: ImportCounts(unchanged: 3), entries: [])
        state.send(.completed(id, .success(.importPreview(unchanged))))
        #expect(Self.calls(state.press(.enter)).isEmpty)
        #expect(
            state.transfer == nil
                && state.message?.text == "Nothing to import: 0 created, 0 updated, 3 unchanged, 0 skipped")
        // A file that is not vCard: the prompt stays with the reason.
        state.press(.char("i"))
        state.type("photo.png")
        (id, _) = try #require(Self.calls(state.press(.enter)).last)
        state.send(.completed(id, .failure(UIFailure(.other, message: "not a vCard file; nothing to import"))))
        #expect(
            state.transfer?.stage == .importPrompt && state.transfer?.problem == "not a vCard file; nothing to import")
        state.press(.escape)
        #expect(state.transfer == nil)
    }

    @Test func ctrlOScansAPhotoIntoTheNewCardsFormAndEscStopsIt() throws {
        var state = AppState.loggedIn(cards: 1)
        state.press(.char("a"), .ctrl("o"))
        #expect(state.form?.scan != nil)
        state.type("~/card.jpg")
        let (id, call) = try #require(Self.calls(state.press(.enter)).last)
        #expect(call == .scanPhoto(path: "~/card.jpg"))
        // Esc stops the scan: the call is cancelled, the form stays as it was.
        #expect(Self.cancels(state.press(.escape)) == [id])
        state.send(.completed(id, .failure(UIFailure(.cancelled, message: "stopped"))))
        #expect(state.form?.scan == nil && state.message?.text == "Scan stopped: the form is as it was")
        #expect(state.form?.fields.allSatisfy { $0.input.text.isEmpty || $0.kind == .card(.defaultImage) } == true)
        // Again, to the end: the fields fill, the photo becomes the image, nothing is sent.
        state.press(.ctrl("o"))
        state.type("~/card.jpg")
        let (again, _) = try #require(Self.calls(state.press(.enter)).last)
        let fields = CardFields(
            name: "Jane Doe", title: "Director", company: "Acme Inc.", email: "jane@acme.example", phone: "+1 555 0100")
        let result = ScanResult(
            fields: fields, notes: [.init(field: "phone", text: "two numbers; the other is kept")],
            imagePath: "/tmp/upright.jpg")
        let filled = state.send(.completed(again, .success(.scanned(result))))
        #expect(Self.calls(filled).isEmpty)
        let form = try #require(state.form)
        func value(_ kind: FormState.FieldKind) -> String? { form.fields.first { $0.kind == kind }?.input.text }
        #expect(
            value(.card(.name)) == "Jane Doe" && value(.card(.company)) == "Acme Inc."
                && value(.imagePath) == "/tmp/upright.jpg")
        #expect(
            state.message?.text
                == "Read 5 fields from ~/card.jpg: check them, then Ctrl-S saves (1 note under the fields)")
        #expect(Renderer.render(state).text.contains("two numbers; the other is kept"))
    }

    @Test func aScanThatFindsNothingKeepsThePromptWithTheReason() throws {
        var state = AppState.loggedIn(cards: 1)
        state.press(.char("a"), .ctrl("o"))
        state.type("blank.png")
        let (id, _) = try #require(Self.calls(state.press(.enter)).last)
        state.send(.completed(id, .failure(UIFailure(.other, message: "no text found in blank.png"))))
        #expect(state.form?.scan?.problem == "no text found in blank.png" && state.form?.scan?.isScanning == false)
        state.press(.escape)
        #expect(state.form?.scan == nil && state.screen == .form)
    }

    @Test func theEditFormHasNoScan() throws {
        var state = AppState.loggedIn(cards: 1)
        state.press(.char("e"))
        state.press(.ctrl("o"))
        #expect(state.form?.scan == nil)
    }
}
