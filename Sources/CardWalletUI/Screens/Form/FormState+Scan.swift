import CardModels

/// The form's prompt for a photo of a paper card, and the scan while it runs.
public struct ScanPrompt: Equatable, Sendable {
    /// The photo's path, as typed.
    public var path: TextFieldState
    /// Set while the photo is being read (Esc stops it).
    public var isScanning = false
    /// Why the last try did not read the photo.
    public var problem: String?

    /// An empty prompt.
    public init(path: String = "") {
        self.path = TextFieldState(path)
    }
}

extension FormState {
    /// Opens the photo prompt: new cards only (the API sets an image at creation).
    mutating func startScan() -> [FormEffect] {
        guard mode == .add else {
            return [.message(.info, "A scan fills a new card's form: press a in the list, then Ctrl-O")]
        }
        guard !isSaving else { return [.message(.info, Self.savingNotice)] }
        scan = ScanPrompt()
        return []
    }

    /// What the prompt makes of `action` while it shows; `nil` for what the form handles as
    /// usual (the save's outcome, a conflict).
    mutating func reduceScan(_ action: FormAction) -> [FormEffect]? {
        guard var prompt = scan else { return nil }
        switch action {
        case .command(.scan):
            guard !prompt.isScanning else { return [] }
            let path = prompt.path.text.trimmingSpaces
            guard !path.isEmpty else {
                prompt.problem = "type the path of a PNG or JPEG photo"
                scan = prompt
                return []
            }
            prompt.isScanning = true
            prompt.problem = nil
            scan = prompt
            return [.call(.scanPhoto(path: path), then: .scan)]
        case .command(.cancelScan):
            if prompt.isScanning { return [.cancel(.scan)] }
            scan = nil
            return []
        case .command:
            return []
        case .text(let command, let typed):
            guard !prompt.isScanning else { return [] }
            if command == .insert, typed?.isControl ?? true { return [] }
            if prompt.path.apply(command, typed: typed) { prompt.problem = nil }
            scan = prompt
            return []
        case .paste(let text):
            guard !prompt.isScanning else { return [] }
            if prompt.path.insert(AppState.oneLine(text)) { prompt.problem = nil }
            scan = prompt
            return []
        case .finished(.scan, let outcome):
            return scanned(outcome, path: prompt.path.text.trimmingSpaces)
        case .finished, .saveFailed, .serverVersion, .settlePicture:
            return nil
        }
    }

    private mutating func scanned(_ outcome: CallOutcome, path: String) -> [FormEffect] {
        switch outcome {
        case .success(.scanned(let result)):
            scan = nil
            return fill(with: result, from: path)
        case .success:
            scan = nil
            return []
        case .failure(let failure) where failure.kind == .cancelled:
            scan = nil
            return [.message(.info, "Scan stopped: the form is as it was")]
        case .failure(let failure):
            scan?.isScanning = false
            scan?.problem = failure.message
            return []
        }
    }

    /// Puts what the scan read into the form: every field it found replaces the form's text
    /// (the user checks and edits before saving), its extra lines join the kept ones, and the
    /// photo becomes the image file.
    mutating func fill(with result: ScanResult, from path: String) -> [FormEffect] {
        var filled = 0
        for index in fields.indices {
            switch fields[index].kind {
            case .card(let field) where field.kind.isText:
                let value = result.fields[field]
                guard !value.isEmpty else { continue }
                fields[index].input = TextFieldState(value)
                fields[index].isTouched = true
                serverProblems[field.key] = nil
                filled += 1
            case .imagePath:
                guard let image = result.imagePath else { continue }
                fields[index].input = TextFieldState(image)
                fields[index].isTouched = true
                serverProblems["image"] = nil
            default:
                continue
            }
        }
        for line in result.fields.vcardProperties where !base.vcardProperties.contains(line) {
            base.vcardProperties.append(line)
        }
        scanNotes = [:]
        scanCardNotes = []
        for note in result.notes {
            if let field = note.field {
                scanNotes[field, default: []].append(note.text)
            } else {
                scanCardNotes.append(note.text)
            }
        }
        if let problem = result.imageProblem { scanNotes["image", default: []].append(problem) }
        focus = 0
        let notes = result.notes.count
        let unsure = notes == 0 ? "" : " (\(notes) note\(notes == 1 ? "" : "s") under the fields)"
        if result.fields.name.isEmpty {
            return [
                .message(
                    .warning,
                    "Read \(filled) field\(filled == 1 ? "" : "s") from \(path) but no name: type it, then Ctrl-S saves\(unsure)"
                )
            ]
        }
        return [
            .message(
                .success,
                "Read \(filled) field\(filled == 1 ? "" : "s") from \(path): check them, then Ctrl-S saves\(unsure)")
        ]
    }
}
