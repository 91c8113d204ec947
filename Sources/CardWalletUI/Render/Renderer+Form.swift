import CardModels

extension Renderer {
    /// One row of the form: a line of a field (a field of several lines has several), its
    /// problem, or the focused field's hint when it does not fit beside the field.
    enum FormRow {
        case field(Int, line: Int)
        case problem(Int, String)
        case hint(Int, String)
        case note(Int, String)

        var fieldIndex: Int {
            switch self {
            case .field(let index, _), .problem(let index, _), .hint(let index, _), .note(let index, _): index
            }
        }
    }

    /// The most lines a field of several lines shows: all of them up to this, around the cursor.
    static let multilineRows = 4

    /// The lines of field `index` that show, in order.
    static func visibleLines(_ form: FormState, index: Int) -> Range<Int> {
        let field = form.fields[index]
        guard field.kind.isMultiline else { return 0..<1 }
        let count = field.input.lines.count
        let shown = min(count, multilineRows)
        let cursorLine = index == form.focus ? field.input.cursorPosition.line : 0
        let start = min(max(0, cursorLine - shown + 1), count - shown)
        return start..<(start + shown)
    }

    /// The form's rows, in order, for a grid `width` columns wide.
    static func formRows(_ form: FormState, width: Int = .max) -> [FormRow] {
        let columns = FormColumns(gridWidth: width == .max ? 200 : width, sideBySide: form.conflict != nil)
        var rows: [FormRow] = []
        for index in form.fields.indices {
            for line in visibleLines(form, index: index) { rows.append(.field(index, line: line)) }
            if let problem = form.visibleProblem(at: index) { rows.append(.problem(index, problem)) }
            for note in form.scanNotes[form.fields[index].kind.key] ?? [] { rows.append(.note(index, "scan: " + note)) }
            if index == form.focus, form.conflict == nil {
                let hint = form.fields[index].kind.hint
                if DisplayWidth.of(hint) > columns.sideWidth {
                    let room = max(1, (width == .max ? 200 : width) - columns.inputX - 1)
                    for line in TextLayout.wrap(hint, width: room) { rows.append(.hint(index, line)) }
                }
            }
        }
        // What the scan did not put in a field (lines it could not place) ends the form.
        for note in form.scanCardNotes { rows.append(.note(max(0, form.fields.count - 1), "scan: " + note)) }
        return rows
    }

    /// Where the form's columns go: the labels, the inputs, then either the focused field's hint
    /// or, after a conflict, the server's version of every field beside the user's.
    struct FormColumns {
        static let labelWidth = 13
        let inputX: Int
        let inputWidth: Int
        let sideX: Int
        let sideWidth: Int

        init(gridWidth: Int, sideBySide: Bool) {
            inputX = 1 + Self.labelWidth
            let room = max(0, gridWidth - inputX - 1)
            if sideBySide {
                inputWidth = max(10, min(60, (room - 3) / 2))
                sideX = inputX + inputWidth + 3
            } else {
                inputWidth = max(10, min(60, room - 1))
                sideX = inputX + inputWidth + 2
            }
            sideWidth = max(0, gridWidth - sideX - 1)
        }
    }

    static func drawForm(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        guard let form = state.form else { return }
        let formLayout = state.formLayout
        // Left of (or above) the picture of the image file, when there is one.
        let width = formLayout.textWidth
        var y = layout.content.lowerBound
        let heading: String =
            switch form.mode {
            case .add: "New card"
            case .edit: "Edit “\(form.fields.first?.input.text ?? "")”"
            }
        grid.draw(heading, x: 1, y: y, width: grid.width - 11, style: Theme.label)
        if form.isSaving { grid.draw("saving…", x: grid.width - 9, y: y, style: Theme.muted) }
        y += 1
        let columns = FormColumns(gridWidth: width, sideBySide: form.conflict != nil)
        if let conflict = form.conflict {
            grid.draw(
                form.offlineEntry == nil
                    ? "The card changed on the server while you edited it\(UIFailure.note(form.conflictCode))."
                    : "Changed on the server while you were offline: your edit was not sent.",
                x: 1, y: y, style: Theme.warning)
            y += 1
            grid.draw("Yours", x: columns.inputX, y: y, width: columns.inputWidth, style: Theme.columnTitle)
            grid.draw(
                "Server, version \(conflict.revision)", x: columns.sideX, y: y, width: columns.sideWidth,
                style: Theme.columnTitle)
            y += 1
        }
        if let box = formLayout.pictureBox {
            drawPicture(&grid, state, form.picture, box: box, x: formLayout.pictureX, y: formLayout.pictureY)
        }
        let rows = formRows(form, width: width)
        let viewport = max(1, formLayout.fieldsBottom - y)
        // Keep the focused field and the rows under it (its problem) in view.
        let focusEnd = (rows.lastIndex { $0.fieldIndex == form.focus } ?? 0) + 1
        let top = max(0, focusEnd - viewport)
        for (offset, row) in rows.dropFirst(top).prefix(viewport).enumerated() {
            let rowY = y + offset
            switch row {
            case .field(let index, let line):
                drawFormField(&grid, form, index: index, line: line, y: rowY, columns: columns)
            case .problem(_, let problem):
                grid.draw(
                    "! " + problem, x: columns.inputX, y: rowY, width: width - columns.inputX - 1, style: Theme.error)
            case .hint(_, let hint):
                grid.draw(hint, x: columns.inputX, y: rowY, width: width - columns.inputX - 1, style: Theme.muted)
            case .note(_, let note):
                grid.draw(
                    "? " + note, x: columns.inputX, y: rowY, width: width - columns.inputX - 1, style: Theme.warning)
            }
        }
    }

    private static func drawFormField(
        _ grid: inout Grid, _ form: FormState, index: Int, line: Int, y: Int, columns: FormColumns
    ) {
        let field = form.fields[index]
        let isFocused = index == form.focus
        let shown = visibleLines(form, index: index)
        if field.kind.isMultiline {
            // One line of the field: the cursor shows on its own line only.
            let lines = field.input.lines
            let position = field.input.cursorPosition
            var input = TextFieldState(String(lines[line]))
            input.cursor = position.line == line ? position.column : 0
            let more = line == shown.upperBound - 1 && shown.upperBound < lines.count
            drawInput(
                &grid, input, x: columns.inputX, y: y, width: columns.inputWidth,
                focused: isFocused && !form.isSaving && position.line == line)
            if more { grid.draw("…", x: columns.inputX + columns.inputWidth - 1, y: y, style: Theme.muted) }
            guard line == shown.lowerBound else { return }
        } else {
            drawInput(
                &grid, field.input, x: columns.inputX, y: y, width: columns.inputWidth,
                focused: isFocused && !form.isSaving)
        }
        let changed = field.input.text != field.original ? "*" : " "
        grid.draw(changed, x: 0, y: y, style: Theme.muted)
        grid.draw(
            field.kind.label, x: 1, y: y, width: FormColumns.labelWidth - 1, style: isFocused ? Theme.key : Theme.label)
        guard columns.sideWidth > 0 else { return }
        if form.conflict != nil {
            guard let theirs = form.serverText(at: index), let mark = form.conflictMark(at: index) else { return }
            let text = theirs.isEmpty ? "(empty)" : theirs
            switch mark {
            case .takenFromServer:
                grid.draw(
                    "= taken: you had not changed it", x: columns.sideX, y: y, width: columns.sideWidth,
                    style: Theme.muted)
            case .same:
                grid.draw("= same", x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
            case .changedByYou:
                // Not a conflict: the server still has what you started from.
                grid.draw(
                    "← yours; server unchanged: " + text, x: columns.sideX, y: y, width: columns.sideWidth,
                    style: Theme.muted)
            case .changedByBoth:
                grid.draw("≠ " + text, x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.warning)
            }
        } else if isFocused, DisplayWidth.of(field.kind.hint) <= columns.sideWidth {
            grid.draw(field.kind.hint, x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
        }
    }
}
