public import CardModels

/// The calls the form makes.
public enum FormCall: Equatable, Sendable {
    /// Saving the card (a create or an update).
    case save
    /// Fetching the server's version of card `id` after a conflict that did not carry it.
    case fetchServerVersion(id: String)
    /// Scanning a photo of a paper card into the form.
    case scan
    /// The picture of the image file beside the fields (made on this machine).
    case picture(PictureRequest)
}

/// What can happen to the form.
public enum FormAction: Equatable, Sendable {
    case command(FormCommand)
    /// A call the form made finished.
    case finished(FormCall, CallOutcome)
    /// Editing the focused field; `typed` is the character for ``TextCommand/insert``.
    case text(TextCommand, typed: Character?)
    /// Text pasted into the focused field: line breaks kept in fields of several lines, spaces
    /// elsewhere.
    case paste(String)
    /// Saving failed.
    case saveFailed(UIFailure)
    /// The server's version of the card, fetched after a conflict that did not carry it.
    case serverVersion(Card)
    /// After every action: the picture of the image file, at the cells the layout gives it.
    case settlePicture(box: PictureBox?)
}

/// What the form asks the app to do.
public enum FormEffect: Equatable, Sendable {
    /// Make `call`; its outcome comes back as ``FormAction/finished(_:_:)`` with `then`.
    case call(AppCall, then: FormCall)
    /// The card is saved as the server now has it: close the form.
    case saved(Card, isNew: Bool)
    /// Leave the form; ask first when `discarding` changes.
    case leave(discarding: Bool)
    /// Cancel the form's call in flight.
    case cancel(FormCall)
    /// Bytes for the terminal (a kitty picture's transmission).
    case terminal([UInt8])
    case message(StatusMessage.Kind, String)
}

extension FormState {
    /// Applies `action`.
    public mutating func reduce(_ action: FormAction) -> [FormEffect] {
        if scan != nil, let effects = reduceScan(action) { return effects }
        switch action {
        case .command(.nextField):
            focus = (focus + 1) % fields.count
        case .command(.previousField):
            focus = (focus - 1 + fields.count) % fields.count
        case .command(.save):
            return save()
        case .command(.cancel):
            // The save is on the wire: asking "discard?" now would be a lie.
            if isSaving {
                return [.message(.warning, "Saving… it cannot be undone now; the form closes when the server answers")]
            }
            return [.leave(discarding: isDirty)]
        case .command(.startScan):
            return startScan()
        case .command(.scan), .command(.cancelScan):
            return []
        case .command(.takeServerField):
            guard let conflict, case .card(let field) = fields[focus].kind else {
                return [.message(.info, "Nothing to take: the server's version differs only after a conflict")]
            }
            fields[focus].input = TextFieldState(conflict.fields[field])
            fields[focus].isTouched = true
            serverProblems[fields[focus].kind.key] = nil
        case .command(.takeServerAll):
            guard let conflict else {
                return [.message(.info, "Nothing to take: the server's version differs only after a conflict")]
            }
            for index in fields.indices {
                guard case .card(let field) = fields[index].kind else { continue }
                let text = conflict.fields[field]
                fields[index] = Field(fields[index].kind, text)
            }
            mode = .edit(id: conflict.id, revision: conflict.revision)
            base = conflict.fields
            self.conflict = nil
            takenFromServer = []
            serverProblems = [:]
            showsAllProblems = false
            return [.message(.info, "Took the server's version (\(conflict.revision)); your changes are gone")]
        case .text(.lineUp, _):
            // Past the first line: the field above.
            if !fields[focus].input.moveLine(by: -1) { focus = (focus - 1 + fields.count) % fields.count }
        case .text(.lineDown, _):
            if !fields[focus].input.moveLine(by: 1) { focus = (focus + 1) % fields.count }
        case .text(let command, let typed):
            guard !isSaving else { return [.message(.info, Self.savingNotice)] }
            if command == .newLine, !fields[focus].kind.isMultiline { return save() }
            if command == .insert, typed?.isControl ?? true { return [] }
            if fields[focus].input.apply(command, typed: typed) {
                fields[focus].isTouched = true
                serverProblems[fields[focus].kind.key] = nil
                scanNotes[fields[focus].kind.key] = nil
            }
        case .finished(let call, let outcome):
            return finished(call, outcome)
        case .paste(let text):
            guard !isSaving else { return [.message(.info, Self.savingNotice)] }
            let kind = fields[focus].kind
            let pasted = kind.isMultiline ? text : AppState.oneLine(text)
            if fields[focus].input.insert(pasted) {
                fields[focus].isTouched = true
                serverProblems[kind.key] = nil
            }
        case .saveFailed(let failure):
            isSaving = false
            return saveFailed(failure)
        case .serverVersion(let card):
            merge(serverVersion: card)
            return [.message(.warning, conflictMessage(card))]
        case .settlePicture(let box):
            return settlePicture(box: box)
        }
        return []
    }

    private mutating func save() -> [FormEffect] {
        guard !isSaving else { return [] }
        let values = cardFields
        let problems = fields.indices.filter {
            localProblem(of: fields[$0].kind, in: values) != nil || serverProblems[fields[$0].kind.key] != nil
        }
        if let first = problems.first {
            showsAllProblems = true
            focus = first
            let count = problems.count
            return [
                .message(.error, count == 1 ? "Fix the marked field first" : "Fix the \(count) marked fields first")
            ]
        }
        isSaving = true
        switch mode {
        case .add:
            return [.call(.createCard(values, imagePath: imagePath), then: .save)]
        case .edit(let id, let revision):
            return [.call(.updateCard(id: id, fields: values, revision: conflict?.revision ?? revision), then: .save)]
        }
    }

    private mutating func finished(_ call: FormCall, _ outcome: CallOutcome) -> [FormEffect] {
        switch (call, outcome) {
        case (.save, .success(.card(let card))):
            isSaving = false
            return [.saved(card, isNew: mode == .add)]
        case (.save, .success):
            isSaving = false
            return []
        case (.save, .failure(let failure)):
            isSaving = false
            if failure.kind == .notFound, case .edit = mode {
                // Gone on the server: the text is not lost, it can become a new card.
                mode = .add
                conflict = nil
                return [
                    .message(
                        .warning,
                        "This card was deleted on the server\(failure.codeNote): your text is still here; Enter saves it as a new card"
                    )
                ]
            }
            return saveFailed(failure)
        case (.fetchServerVersion(let id), .success(.card(let card))):
            guard case .edit(let editing, _) = mode, editing == id else { return [] }
            return reduce(.serverVersion(card))
        case (.fetchServerVersion, .success):
            return []
        case (.fetchServerVersion, .failure(let failure)):
            return [.message(.error, FailureText.status(failure, doing: "Could not fetch the server's version"))]
        case (.picture(let request), _):
            return pictureArrived(request, outcome)
        case (.scan, _):
            // The prompt was closed meanwhile; a scan's result comes only while it shows.
            return []
        }
    }

    private mutating func saveFailed(_ failure: UIFailure) -> [FormEffect] {
        switch failure.kind {
        case .validation(let problems):
            serverProblems = problems
            showsAllProblems = true
            if let first = fields.indices.first(where: { problems[fields[$0].kind.key] != nil }) { focus = first }
            return [.message(.error, "The server refused some fields\(failure.codeNote): see the marked fields")]
        case .conflict(let current):
            conflictCode = failure.serverCode
            guard let current else {
                guard case .edit(let id, _) = mode else { return [.message(.error, failure.message)] }
                return [
                    .call(.loadCard(id: id), then: .fetchServerVersion(id: id)),
                    .message(.warning, "The card changed on the server\(failure.codeNote): fetching its version…"),
                ]
            }
            merge(serverVersion: current)
            return [.message(.warning, conflictMessage(current))]
        case .localImage(let problem):
            serverProblems["image"] = problem
            focusImage()
            return [.message(.error, "The image file cannot be used: \(problem). Nothing was sent.")]
        case .tooLarge:
            serverProblems["image"] = "is too large for the server\(failure.codeNote)"
            focusImage()
            return [.message(.error, "The image is too large\(failure.codeNote)")]
        case .unsupportedMedia:
            serverProblems["image"] = "must be a PNG or JPEG image\(failure.codeNote)"
            focusImage()
            return [.message(.error, "The server accepts only PNG and JPEG images\(failure.codeNote)")]
        case .server(let status?):
            return [.message(.error, "Not saved: server error \(status); Enter tries again")]
        case .rateLimited:
            return [.message(.error, FailureText.status(failure, doing: "Not saved"))]
        default:
            return [.message(.error, "Not saved: \(failure.message)")]
        }
    }

    private mutating func focusImage() {
        if let index = fields.firstIndex(where: { $0.kind == .imagePath }) { focus = index }
    }

    private func conflictMessage(_ card: Card) -> String {
        "Changed on the server\(UIFailure.note(conflictCode)): Enter saves yours over version \(card.revision)"
    }
}
