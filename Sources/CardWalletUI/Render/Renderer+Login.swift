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
                grid.draw("! " + error.message, x: x + labelWidth, y: row, width: width - labelWidth, style: Theme.error)
                row += 1
            }
            row += 1
        }
        if let error = login.error, error.field == nil {
            grid.draw("! " + error.message, x: x, y: row, width: width, style: Theme.error)
            row += 1
        }
        if login.isSubmitting {
            grid.draw("Logging in…", x: x, y: row, width: width, style: Theme.muted)
        }
    }
}
