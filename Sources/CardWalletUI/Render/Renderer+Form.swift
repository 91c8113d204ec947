extension Renderer {
    /// One row of the form: a field, its problem, or the server's value after a conflict.
    enum FormRow {
        case field(Int), problem(Int, String), server(Int, String)

        var fieldIndex: Int {
            switch self {
            case .field(let index), .problem(let index, _), .server(let index, _): index
            }
        }
    }

    /// The form's rows, in order.
    static func formRows(_ form: FormState) -> [FormRow] {
        var rows: [FormRow] = []
        for index in form.fields.indices {
            rows.append(.field(index))
            if let problem = form.visibleProblem(at: index) { rows.append(.problem(index, problem)) }
            if let theirs = form.serverValue(at: index) { rows.append(.server(index, theirs)) }
        }
        return rows
    }

    static func drawForm(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        guard let form = state.form else { return }
        var y = layout.content.lowerBound
        let heading: String = switch form.mode {
        case .add: "New card"
        case .edit: "Edit “\(form.fields.first?.input.text ?? "")”"
        }
        grid.draw(heading, x: 1, y: y, style: Theme.label)
        if form.isSaving { grid.draw("saving…", x: grid.width - 9, y: y, style: Theme.muted) }
        y += 1
        if let conflict = form.conflict {
            grid.draw("Changed on the server (E07): its version \(conflict.version) is shown under yours.",
                      x: 1, y: y, style: Theme.warning)
            y += 1
        }
        let labelWidth = 13
        let inputX = 1 + labelWidth
        let inputWidth = max(10, min(60, grid.width - inputX - 2))
        let rows = formRows(form)
        let viewport = max(1, layout.content.upperBound - y)
        // Keep the focused field and the rows under it (problem, server value) in view.
        let focusEnd = (rows.lastIndex { $0.fieldIndex == form.focus } ?? 0) + 1
        let top = max(0, focusEnd - viewport)
        for (offset, row) in rows.dropFirst(top).prefix(viewport).enumerated() {
            let rowY = y + offset
            switch row {
            case .field(let index):
                let field = form.fields[index]
                let isFocused = index == form.focus
                let changed = field.input.text != field.original ? "*" : " "
                grid.draw(changed, x: 0, y: rowY, style: Theme.muted)
                grid.draw(field.kind.label, x: 1, y: rowY, width: labelWidth - 1, style: isFocused ? Theme.key : Theme.label)
                drawInput(&grid, field.input, x: inputX, y: rowY, width: inputWidth, focused: isFocused && !form.isSaving)
                let hintX = inputX + inputWidth + 2
                if isFocused, grid.width - hintX >= 16 {
                    grid.draw(field.kind.hint, x: hintX, y: rowY, width: grid.width - hintX - 1, style: Theme.muted)
                }
            case .problem(_, let problem):
                grid.draw("! " + problem, x: inputX, y: rowY, width: grid.width - inputX - 1, style: Theme.error)
            case .server(_, let theirs):
                grid.draw("server: " + (theirs.isEmpty ? "(empty)" : theirs), x: inputX, y: rowY,
                          width: grid.width - inputX - 1, style: Theme.warning)
            }
        }
    }
}
