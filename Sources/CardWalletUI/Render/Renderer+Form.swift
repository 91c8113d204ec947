import CardModels
extension Renderer {
    /// One row of the form: a field, or its problem.
    enum FormRow {
        case field(Int), problem(Int, String)

        var fieldIndex: Int {
            switch self {
            case .field(let index), .problem(let index, _): index
            }
        }
    }

    /// The form's rows, in order.
    static func formRows(_ form: FormState) -> [FormRow] {
        var rows: [FormRow] = []
        for index in form.fields.indices {
            rows.append(.field(index))
            if let problem = form.visibleProblem(at: index) { rows.append(.problem(index, problem)) }
        }
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
        var y = layout.content.lowerBound
        let heading: String =
            switch form.mode {
            case .add: "New card"
            case .edit: "Edit “\(form.fields.first?.input.text ?? "")”"
            }
        grid.draw(heading, x: 1, y: y, width: grid.width - 11, style: Theme.label)
        if form.isSaving { grid.draw("saving…", x: grid.width - 9, y: y, style: Theme.muted) }
        y += 1
        let columns = FormColumns(gridWidth: grid.width, sideBySide: form.conflict != nil)
        if let conflict = form.conflict {
            grid.draw(
                "The card changed on the server while you edited it (E07).",
                x: 1, y: y, style: Theme.warning)
            y += 1
            grid.draw("Yours", x: columns.inputX, y: y, width: columns.inputWidth, style: Theme.columnTitle)
            grid.draw(
                "Server, version \(conflict.version)", x: columns.sideX, y: y, width: columns.sideWidth,
                style: Theme.columnTitle)
            y += 1
        }
        let rows = formRows(form)
        let viewport = max(1, layout.content.upperBound - y)
        // Keep the focused field and the rows under it (its problem) in view.
        let focusEnd = (rows.lastIndex { $0.fieldIndex == form.focus } ?? 0) + 1
        let top = max(0, focusEnd - viewport)
        for (offset, row) in rows.dropFirst(top).prefix(viewport).enumerated() {
            let rowY = y + offset
            switch row {
            case .field(let index):
                drawFormField(&grid, form, index: index, y: rowY, columns: columns)
            case .problem(_, let problem):
                grid.draw("! " + problem, x: columns.inputX, y: rowY, width: grid.width - columns.inputX - 1, style: Theme.error)
            }
        }
    }

    private static func drawFormField(_ grid: inout Grid, _ form: FormState, index: Int, y: Int, columns: FormColumns) {
        let field = form.fields[index]
        let isFocused = index == form.focus
        let changed = field.input.text != field.original ? "*" : " "
        grid.draw(changed, x: 0, y: y, style: Theme.muted)
        grid.draw(
            field.kind.label, x: 1, y: y, width: FormColumns.labelWidth - 1, style: isFocused ? Theme.key : Theme.label)
        drawInput(
            &grid, field.input, x: columns.inputX, y: y, width: columns.inputWidth, focused: isFocused && !form.isSaving)
        guard columns.sideWidth > 0 else { return }
        if form.conflict != nil {
            guard let theirs = form.serverText(at: index), let mark = form.conflictMark(at: index) else { return }
            let text = theirs.isEmpty ? "(empty)" : theirs
            switch mark {
            case .takenFromServer:
                grid.draw("= taken: you had not changed it", x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
            case .same:
                grid.draw("= same", x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
            case .changedByYou:
                // Not a conflict: the server still has what you started from.
                grid.draw("← yours; server unchanged: " + text, x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
            case .changedByBoth:
                grid.draw("≠ " + text, x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.warning)
            }
        } else if isFocused, columns.sideWidth >= 15 {
            grid.draw(field.kind.hint, x: columns.sideX, y: y, width: columns.sideWidth, style: Theme.muted)
        }
    }
}
