import CardModels

extension TransferState {
    /// Applies `action`; `viewport` is how many lines of the preview or report show.
    public mutating func reduce(_ action: TransferAction, viewport: Int) -> [TransferEffect] {
        switch action {
        case .command(let command):
            return perform(command, viewport: viewport)
        case .text(let command, let typed):
            guard isTakingText else { return [] }
            if command == .insert, typed?.isControl ?? true { return [] }
            if path.apply(command, typed: typed) {
                problem = nil
                replacing = false
            }
        case .paste(let text):
            guard isTakingText else { return [] }
            if path.insert(AppState.oneLine(text)) {
                problem = nil
                replacing = false
            }
        case .progress(let progress):
            if case .importing(let preview, _, let stopping) = stage {
                stage = .importing(preview, progress: progress, stopping: stopping)
            }
        case .finished(let call, let outcome):
            return finished(call, outcome)
        }
        return []
    }

    private mutating func perform(_ command: TransferCommand, viewport: Int) -> [TransferEffect] {
        switch (stage, command) {
        case (.exportPrompt, .nextFormat):
            format = format.next
            let renamed = Self.path(path.text, for: format)
            if renamed != path.text { path = TextFieldState(renamed) }
            replacing = false
        case (.exportPrompt, .accept):
            let typed = path.text.trimmingSpaces
            guard !typed.isEmpty else {
                problem = "type the file to write"
                return []
            }
            stage = .exporting
            return [
                .call(
                    .exportCards(ExportRequest(cards: exportCards, path: typed, format: format, replacing: replacing)),
                    then: .export)
            ]
        case (.importPrompt, .accept):
            let typed = path.text.trimmingSpaces
            guard !typed.isEmpty else {
                problem = "type the vCard file (or folder) to read"
                return []
            }
            stage = .reading
            return [.call(.previewImport(path: typed), then: .preview)]
        case (.exportPrompt, .cancel), (.importPrompt, .cancel):
            return [.close]
        case (.exporting, .cancel):
            return [.cancel(.export)]
        case (.reading, .cancel):
            return [.cancel(.preview)]
        case (.preview(let preview), .accept):
            guard preview.changesSomething else {
                return [.close, .message(.info, "Nothing to import: \(preview.counts.summary)")]
            }
            stage = .importing(preview, progress: CallProgress(done: 0, total: preview.entries.count), stopping: false)
            scroll = 0
            return [.call(.runImport(planID: preview.planID), then: .run)]
        case (.preview, .cancel):
            return [.close, .message(.info, "Nothing imported")]
        case (.importing(let preview, let progress, false), .cancel):
            stage = .importing(preview, progress: progress, stopping: true)
            return [.cancel(.run)]
        case (.report, .accept), (.report, .cancel):
            return [.close]
        case (.preview, .scroll(let direction)), (.report, .scroll(let direction)):
            scroll = Pager.scroll(scroll, direction, viewport: viewport, lineCount: lines.count)
        default:
            break
        }
        return []
    }

    private mutating func finished(_ call: TransferCall, _ outcome: CallOutcome) -> [TransferEffect] {
        switch (call, outcome) {
        case (.export, .success(.exported(let count, let written))):
            return [
                .close,
                .message(.success, "Exported \(count) card\(count == 1 ? "" : "s") to \(written) (\(format.label))"),
            ]
        case (.export, .failure(let failure)):
            stage = .exportPrompt
            switch failure.kind {
            case .fileExists:
                replacing = true
                problem = "exists already: Enter replaces it"
            case .cancelled:
                problem = "stopped: nothing was written"
            default:
                problem = failure.message
            }
        case (.preview, .success(.importPreview(let preview))):
            stage = .preview(preview)
            scroll = 0
        case (.preview, .failure(let failure)):
            stage = .importPrompt
            problem = failure.kind == .cancelled ? "stopped" : failure.message
        case (.run, .success(.imported(let report))):
            stage = .report(report)
            scroll = 0
            let changed = report.counts.created + report.counts.updated
            var effects: [TransferEffect] = changed > 0 ? [.reloadList] : []
            let summary = report.counts.summary
            if let failure = report.failure {
                effects.append(.message(.error, "The import stopped: \(failure) (\(summary))"))
            } else if report.cancelled {
                effects.append(.message(.warning, "Import stopped between two cards: \(summary)"))
            } else {
                effects.append(.message(report.counts.skipped > 0 ? .warning : .success, "Imported: \(summary)"))
            }
            return effects
        case (.run, .failure(let failure)):
            // The import as a whole could not start (the plan is gone, the session ended).
            stage = .report(ImportReport(counts: ImportCounts(), planned: 0, failure: failure.message))
            return [.reloadList, .message(.error, "The import stopped: \(failure.message)")]
        default:
            break
        }
        return []
    }

    /// The lines of the preview or the report, as the dialog lists them.
    public var lines: [TransferLine] {
        switch stage {
        case .preview(let preview):
            return preview.entries.map(TransferLine.init(entry:))
        case .report(let report):
            var lines: [TransferLine] = []
            if let failure = report.failure {
                lines.append(TransferLine(mark: "✗", text: failure, detail: "", isProblem: true))
            }
            lines += report.problems.map { TransferLine(mark: "✗", text: $0, detail: "", isProblem: true) }
            return lines
        default:
            return []
        }
    }
}

/// One line of the import preview or report.
public struct TransferLine: Equatable, Sendable {
    /// `+` created, `~` updated, `=` unchanged, `✗` skipped.
    public var mark: String
    /// The card's name, or the problem.
    public var text: String
    /// What changes, or why it is skipped.
    public var detail: String
    /// Whether it is shown as a problem.
    public var isProblem: Bool

    init(mark: String, text: String, detail: String, isProblem: Bool) {
        self.mark = mark
        self.text = text
        self.detail = detail
        self.isProblem = isProblem
    }

    init(entry: ImportPreview.Entry) {
        switch entry.kind {
        case .create:
            self.init(
                mark: "+", text: entry.name, detail: entry.detail.isEmpty ? "new" : entry.detail, isProblem: false)
        case .update: self.init(mark: "~", text: entry.name, detail: entry.detail, isProblem: false)
        case .unchanged: self.init(mark: "=", text: entry.name, detail: "unchanged", isProblem: false)
        case .skip:
            self.init(
                mark: "✗", text: entry.name.isEmpty ? "(no name)" : entry.name, detail: entry.detail, isProblem: true)
        }
    }
}
