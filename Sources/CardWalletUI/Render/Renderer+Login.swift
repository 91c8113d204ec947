extension Renderer {
    static func drawLogin(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        let top = layout.content.lowerBound + 1
        grid.draw("Log in to a card server", x: 2, y: top, style: Theme.label)
        drawLoginFields(&grid, state.login, x: 2, y: top + 2, width: grid.width - 4)
    }

    /// The fields of a login form from row `y`, with the inline error under its field.
    static func drawLoginFields(_ grid: inout Grid, _ login: LoginState, x: Int, y: Int, width: Int) {
        let labelWidth = 10
        let inputWidth = max(10, min(56, width - labelWidth))
        var row = y
        for field in LoginState.Field.allCases {
            let isEditable = login.editable.contains(field)
            grid.draw(field.label, x: x, y: row, width: labelWidth - 1, style: Theme.label)
            if isEditable {
                drawInput(&grid, login[field], x: x + labelWidth, y: row, width: inputWidth,
                          focused: login.focus == field && !login.isSubmitting, masked: field == .password)
            } else {
                grid.draw(login[field].text, x: x + labelWidth, y: row, width: inputWidth, style: Theme.muted)
            }
            row += 1
            if let error = login.error, error.field == field {
                row += drawError(&grid, error.message, x: x + labelWidth, y: row, width: width - labelWidth)
            }
            row += 1
        }
        if let error = login.error, error.field == nil {
            row += drawError(&grid, error.message, x: x, y: row, width: width)
        }
        if login.isSubmitting {
            grid.draw("Logging in…", x: x, y: row, width: width, style: Theme.muted)
        }
    }

    /// An inline error, wrapped onto at most three lines (the last cut with an ellipsis).
    ///
    /// - Returns: The rows used.
    private static func drawError(_ grid: inout Grid, _ message: String, x: Int, y: Int, width: Int) -> Int {
        let lines = TextLayout.wrap(SafeText.escaped("! " + message), width: max(1, width))
        let shown = lines.prefix(3)
        for (offset, line) in shown.enumerated() {
            // The next line's words cannot fit after the last shown line: clipping ends it in "…".
            let isCut = offset == shown.count - 1 && lines.count > shown.count
            let text = isCut ? line + " " + lines[shown.count] : line
            grid.draw(text, x: x, y: y + offset, width: width, style: Theme.error)
        }
        return shown.count
    }
}
