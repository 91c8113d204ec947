import CardModels

extension Renderer {
    static func drawLogin(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        let top = layout.content.lowerBound + 1
        grid.draw("Log in to a card server", x: 2, y: top, style: Theme.label)
        // The stored accounts, under the form: as many as fit above the bottom, the rest counted.
        let accounts = state.storedAccounts
        let listRows = accounts.isEmpty ? 0 : min(accounts.count, 4) + 2
        let bottom = layout.content.upperBound
        let formBottom = bottom - listRows >= top + 5 ? bottom - listRows : bottom
        drawLoginFields(&grid, state.login, x: 2, y: top + 2, width: grid.width - 4, bottom: formBottom)
        guard formBottom < bottom else { return }
        var row = formBottom + 1
        grid.draw("Stored accounts (F3 to switch):", x: 2, y: row, width: grid.width - 4, style: Theme.label)
        row += 1
        for account in accounts.prefix(bottom - row) {
            let shown = (account.inUse ? "* " : "  ") + AccountPicker.line(account)
            grid.draw(TerminalText.escaped(shown), x: 2, y: row, width: grid.width - 4, style: Theme.muted)
            row += 1
        }
    }

    /// The fields of a login form from row `y` down to (not including) row `bottom`, with the
    /// inline error under its field. A blank row separates the fields when there is room for
    /// it; nothing is drawn at or below `bottom` (the log pane, the status bar, a box's border).
    static func drawLoginFields(_ grid: inout Grid, _ login: LoginState, x: Int, y: Int, width: Int, bottom: Int) {
        let labelWidth = 10
        let inputWidth = max(10, min(56, width - labelWidth))
        let errorRows = login.error == nil ? 0 : 1
        let roomy = LoginState.Field.allCases.count * 2 + errorRows + (login.isSubmitting ? 1 : 0)
        let gap = bottom - y >= roomy ? 1 : 0
        var row = y
        for field in LoginState.Field.allCases where row < bottom {
            let isEditable = login.editable.contains(field)
            grid.draw(field.label, x: x, y: row, width: labelWidth - 1, style: Theme.label)
            if isEditable {
                drawInput(
                    &grid, login[field], x: x + labelWidth, y: row, width: inputWidth,
                    focused: login.focus == field && !login.isSubmitting, masked: field == .password)
            } else {
                grid.draw(login[field].text, x: x + labelWidth, y: row, width: inputWidth, style: Theme.muted)
            }
            row += 1
            if let error = login.error, error.field == field {
                row += drawError(
                    &grid, error.message, x: x + labelWidth, y: row, width: width - labelWidth, bottom: bottom)
            }
            row += gap
        }
        if let error = login.error, error.field == nil {
            row += drawError(&grid, error.message, x: x, y: row, width: width, bottom: bottom)
        }
        if login.isWaitingForBrowser {
            drawBrowserWait(&grid, login, x: x, y: row, width: width, bottom: bottom)
        } else if login.isSubmitting, row < bottom {
            grid.draw("Logging in…", x: x, y: row, width: width, style: Theme.muted)
        }
    }

    /// A browser login's wait: what to do, then the authorization address cut into rows of the
    /// width (no spaces added, so that a selection across the rows is the address).
    private static func drawBrowserWait(
        _ grid: inout Grid, _ login: LoginState, x: Int, y: Int, width: Int, bottom: Int
    ) {
        guard y < bottom else { return }
        guard let address = login.browserAddress else {
            grid.draw("Starting the browser login…", x: x, y: y, width: width, style: Theme.muted)
            return
        }
        grid.draw(
            "Log in in your browser (Esc cancels). If it did not open, open this address:", x: x, y: y, width: width,
            style: Theme.muted)
        var rest = Substring(TerminalText.escaped(address))
        var row = y + 1
        let chunk = max(1, width)
        while !rest.isEmpty, row < bottom {
            grid.draw(String(rest.prefix(chunk)), x: x, y: row, width: width, style: Theme.label)
            rest = rest.dropFirst(chunk)
            row += 1
        }
    }

    /// An inline error, wrapped onto at most three lines (and the rows left above `bottom`), the
    /// last cut with an ellipsis when there is more.
    ///
    /// - Returns: The rows used.
    private static func drawError(
        _ grid: inout Grid, _ message: String, x: Int, y: Int, width: Int, bottom: Int
    ) -> Int {
        let lines = TextLayout.wrap(TerminalText.escaped("! " + message), width: max(1, width))
        let shown = lines.prefix(max(0, min(3, bottom - y)))
        for (offset, line) in shown.enumerated() {
            // The next line's words cannot fit after the last shown line: clipping ends it in "…".
            let isCut = offset == shown.count - 1 && lines.count > shown.count
            let text = isCut ? line + " " + lines[shown.count] : line
            grid.draw(text, x: x, y: y + offset, width: width, style: Theme.error)
        }
        return shown.count
    }
}
