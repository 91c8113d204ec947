import CardModels

extension Renderer {
    /// The export and import dialogs: a box over the screen, as tall as the screen for the
    /// preview and the report.
    static func drawTransfer(_ grid: inout Grid, _ state: AppState, _ transfer: TransferState, _ layout: Layout) {
        let frame = TransferFrame(state)
        switch transfer.stage {
        case .exportPrompt, .exporting:
            let box = drawBox(
                &grid, title: "Export", width: frame.width, height: TransferFrame.promptHeight, layout: layout)
            grid.draw(
                "Export \(transfer.exportLabel) as \(transfer.format.label)", x: box.x, y: box.y, width: box.width,
                style: Theme.label)
            drawPath(&grid, transfer, box: box)
            let formats = ExportFormat.allCases.map(\.label).joined(separator: " · ")
            let footer = transfer.stage == .exporting ? "Writing the file… (Esc stops)" : "Tab: \(formats)"
            grid.draw(footer, x: box.x, y: box.y + box.height - 1, width: box.width, style: Theme.muted)
        case .importPrompt, .reading:
            let box = drawBox(
                &grid, title: "Import", width: frame.width, height: TransferFrame.promptHeight, layout: layout)
            grid.draw(
                "Import a vCard file (2.1, 3.0 or 4.0), or a folder of them", x: box.x, y: box.y, width: box.width,
                style: Theme.label)
            drawPath(&grid, transfer, box: box)
            let footer =
                transfer.stage == .reading
                ? "Reading the file and comparing it with the wallet… (Esc stops)"
                : "Nothing is sent before you have seen what would change."
            grid.draw(footer, x: box.x, y: box.y + box.height - 1, width: box.width, style: Theme.muted)
        case .preview(let preview):
            let box = drawBox(
                &grid, title: "Import \(preview.file)", width: frame.width, height: frame.height, layout: layout)
            let counts = preview.counts
            grid.draw(
                "\(counts.created) to create, \(counts.updated) to update, \(counts.unchanged) unchanged, \(counts.skipped) skipped",
                x: box.x, y: box.y, width: box.width, style: Theme.label)
            drawLines(&grid, transfer, box: box)
            let footer =
                preview.changesSomething
                ? "Enter imports · Esc cancels: nothing is sent" : "Nothing would change · Esc closes"
            grid.draw(footer, x: box.x, y: box.y + box.height - 1, width: box.width, style: Theme.muted)
        case .importing(let preview, let progress, let stopping):
            let box = drawBox(
                &grid, title: "Import \(preview.file)", width: frame.width, height: TransferFrame.promptHeight,
                layout: layout)
            let total = progress?.total ?? preview.entries.count
            let done = min(progress?.done ?? 0, total)
            grid.draw("Importing… \(done) of \(total) cards", x: box.x, y: box.y, width: box.width, style: Theme.label)
            let barWidth = max(1, box.width)
            let filled = total == 0 ? barWidth : barWidth * done / total
            grid.draw(
                String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled), x: box.x,
                y: box.y + 2, style: Theme.key)
            let footer =
                stopping
                ? "Stopping after the card in progress…" : "Esc stops after the card in progress; nothing is half made"
            grid.draw(
                footer, x: box.x, y: box.y + box.height - 1, width: box.width,
                style: stopping ? Theme.warning : Theme.muted)
        case .report(let report):
            let box = drawBox(&grid, title: "Import finished", width: frame.width, height: frame.height, layout: layout)
            let heading = report.failure != nil ? "Stopped" : report.cancelled ? "Stopped by Esc" : "Imported"
            grid.draw("\(heading): \(report.counts.summary)", x: box.x, y: box.y, width: box.width, style: Theme.label)
            drawLines(&grid, transfer, box: box)
            grid.draw("Enter closes", x: box.x, y: box.y + box.height - 1, width: box.width, style: Theme.muted)
        }
    }

    private static func drawPath(
        _ grid: inout Grid, _ transfer: TransferState, box: (x: Int, y: Int, width: Int, height: Int)
    ) {
        let labelWidth = 6
        grid.draw("File", x: box.x, y: box.y + 2, style: Theme.label)
        drawInput(
            &grid, transfer.path, x: box.x + labelWidth, y: box.y + 2, width: box.width - labelWidth,
            focused: transfer.isTakingText)
        if let problem = transfer.problem {
            grid.draw(
                "! " + problem, x: box.x + labelWidth, y: box.y + 3, width: box.width - labelWidth, style: Theme.error)
        }
    }

    private static func drawLines(
        _ grid: inout Grid, _ transfer: TransferState, box: (x: Int, y: Int, width: Int, height: Int)
    ) {
        let lines = transfer.lines
        let viewport = max(1, box.height - 3)
        let scroll = min(transfer.scroll, max(0, lines.count - viewport))
        let nameWidth = min(36, max(10, box.width / 2))
        for (offset, line) in lines.dropFirst(scroll).prefix(viewport).enumerated() {
            let y = box.y + 2 + offset
            let style = line.isProblem ? Theme.error : Style()
            grid.draw(line.mark, x: box.x, y: y, style: line.isProblem ? Theme.error : Theme.key)
            if line.isProblem, line.detail.isEmpty {
                grid.draw(line.text, x: box.x + 2, y: y, width: box.width - 2, style: style)
            } else {
                grid.draw(line.text, x: box.x + 2, y: y, width: nameWidth, style: style)
                grid.draw(
                    line.detail, x: box.x + 3 + nameWidth, y: y, width: box.width - nameWidth - 3, style: Theme.muted)
            }
        }
        if lines.count > scroll + viewport {
            let more = "↓ \(lines.count - scroll - viewport) more"
            grid.draw(more, x: box.x + box.width - DisplayWidth.of(more), y: box.y + box.height - 1, style: Theme.muted)
        }
    }

    /// The form's prompt for a photo to scan, over the form.
    static func drawScanPrompt(_ grid: inout Grid, _ prompt: ScanPrompt, _ layout: Layout) {
        let box = drawBox(
            &grid, title: "Scan a paper card", width: 72, height: TransferFrame.promptHeight, layout: layout)
        grid.draw(
            "A photo of a business card (PNG or JPEG) fills the form", x: box.x, y: box.y, width: box.width,
            style: Theme.label)
        grid.draw("Photo", x: box.x, y: box.y + 2, style: Theme.label)
        drawInput(&grid, prompt.path, x: box.x + 7, y: box.y + 2, width: box.width - 7, focused: !prompt.isScanning)
        if let problem = prompt.problem {
            grid.draw("! " + problem, x: box.x + 7, y: box.y + 3, width: box.width - 7, style: Theme.error)
        }
        let footer =
            prompt.isScanning
            ? "Reading the card… (Esc stops; the form stays as it was)"
            : "The fields stay editable; the photo becomes the card's image."
        grid.draw(footer, x: box.x, y: box.y + box.height - 1, width: box.width, style: Theme.muted)
    }
}

/// The size of the export and import dialogs, shared by the renderer and the reducer (which
/// scrolls the preview by pages of ``viewport`` lines).
struct TransferFrame {
    /// Rows of a dialog that asks for a file.
    static let promptHeight = 8
    let width: Int
    let height: Int

    init(_ state: AppState) {
        width = min(max(40, state.width - 4), 90)
        height = max(TransferFrame.promptHeight, state.layout.content.count)
    }

    /// The preview's or report's lines that show.
    var viewport: Int { max(1, min(height, 1_000) - 2 - 3) }
}

extension AppState {
    /// The lines of the import preview or report that show at once.
    var transferViewport: Int { TransferFrame(self).viewport }
}
