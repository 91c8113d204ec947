import CardModels

/// Draws an ``AppState`` into a ``Grid``: a pure function of the state, at any size.
///
/// Only what is visible is drawn (the list's visible rows, the log pane's last lines), so a
/// frame costs the same with ten cards or a hundred thousand.
public enum Renderer {
    /// The frame for `state`, the size of its terminal.
    public static func render(_ state: AppState) -> Grid {
        var grid = Grid(width: state.width, height: state.height)
        let layout = state.layout
        if layout.isTooSmall {
            drawTooSmall(&grid, state)
            return grid
        }
        drawTitleBar(&grid, state)
        switch state.screen {
        case .login: drawLogin(&grid, state, layout)
        case .list: drawList(&grid, state, layout)
        case .detail: drawDetail(&grid, state, layout)
        case .form: drawForm(&grid, state, layout)
        }
        if layout.logPane != nil { drawLogPane(&grid, state, layout) }
        // A page (help, an overlay that covers the screen) hides the dialogs beneath it; a dialog
        // overlay goes under the session-expired dialog.
        let page = isPage(state.modal) || state.overlayCoversScreen
        if let transfer = state.transfer, !page { drawTransfer(&grid, state, transfer, layout) }
        if state.screen == .form, let scan = state.form?.scan, !page { drawScanPrompt(&grid, scan, layout) }
        if let open = state.overlay, !open.overlay.coversScreen { open.overlay.draw(&grid, app: state, layout: layout) }
        if let reauth = state.reauth, !page { drawReauth(&grid, reauth, layout) }
        if let open = state.overlay, open.overlay.coversScreen { open.overlay.draw(&grid, app: state, layout: layout) }
        if case .help(let scroll) = state.modal { drawHelp(&grid, state, layout, scroll: scroll) }
        if case .confirm(let question) = state.modal { drawConfirm(&grid, question, layout) }
        drawStatusBar(&grid, state, layout)
        if state.screen == .detail, let qr = state.detail?.qr, state.modal == nil, state.overlay == nil,
            state.reauth == nil
        {
            // The code takes every row but its caption (which says any key closes it): a
            // larger code fits, and a hint row would add nothing.
            drawQR(&grid, state, qr)
            return grid
        }
        drawHints(&grid, state, layout)
        return grid
    }

    private static func isPage(_ modal: Modal?) -> Bool {
        switch modal {
        case .help: true
        case .confirm, nil: false
        }
    }

    static func drawTooSmall(_ grid: inout Grid, _ state: AppState) {
        // Each sentence wrapped to the width; the shorter wording when the long one does not fit.
        let long = [
            "Terminal too small",
            "\(state.width)×\(state.height); CardWallet needs \(Layout.minimumWidth)×\(Layout.minimumHeight)",
            "Enlarge the window, or press Ctrl-C to quit",
        ]
        let short = [
            "Too small",
            "\(state.width)×\(state.height), needs \(Layout.minimumWidth)×\(Layout.minimumHeight)",
            "Ctrl-C quits",
        ]
        func wrapped(_ sentences: [String]) -> [(text: String, isTitle: Bool)] {
            sentences.enumerated().flatMap { index, sentence in
                TextLayout.wrap(sentence, width: max(1, state.width)).map { ($0, index == 0) }
            }
        }
        var lines = wrapped(long)
        if lines.count > state.height { lines = wrapped(short) }
        if lines.count > state.height { lines = wrapped([short[0], short[2]]) }
        let top = max(0, (state.height - lines.count) / 2)
        for (offset, line) in lines.prefix(max(0, state.height)).enumerated() {
            let width = min(DisplayWidth.of(line.text), state.width)
            grid.draw(
                line.text, x: max(0, (state.width - width) / 2), y: top + offset,
                style: line.isTitle ? Theme.error : Style())
        }
    }

    static func drawTitleBar(_ grid: inout Grid, _ state: AppState) {
        grid.fill(x: 0, y: 0, width: grid.width, height: 1, style: Theme.titleBar)
        let title: String
        var right = ""
        switch state.screen {
        case .login:
            title = "CardWallet · log in"
        case .list:
            let cards = state.list.cards
            if cards.isTotalKnown {
                let total = "\(cards.total) card\(cards.total == 1 ? "" : "s")"
                var text = "CardWallet · " + (state.list.showsAllBooks ? "all books · " : "")
                text += cards.isFiltered ? "\(cards.rows.count) of \(total)" : total
                if !cards.isComplete { text += " (\(cards.loadedCount) loaded)" }
                if state.list.isReloading { text += " · reloading…" }
                if !state.list.marked.isEmpty { text += " · \(state.list.marked.count) marked" }
                title = text
            } else {
                let loading = !state.list.hasLoaded || state.list.isLoadingPage
                title = loading ? "CardWallet · loading cards…" : "CardWallet · cards not loaded"
            }
            let count = cards.rows.count
            let position = count > 0 ? "\(state.list.selection + 1)/\(count) · " : ""
            right = position + "sorted by \(cards.sortOrder.label)"
        case .detail:
            let book = state.detail.flatMap { state.list.bookLabel(of: $0.id) }
            title = "CardWallet · card" + (book.map { " · \(TerminalText.escaped($0))" } ?? "")
        case .form:
            switch state.form?.mode {
            case .edit(_, let revision)?:
                title = "CardWallet · edit card (version \(state.form?.saveRevision ?? revision))"
            default: title = "CardWallet · new card"
            }
        }
        let rightWidth = DisplayWidth.of(right)
        grid.draw(" " + title, x: 0, y: 0, width: max(0, grid.width - rightWidth - 2), style: Theme.titleBar)
        if !right.isEmpty, grid.width > rightWidth + 20 {
            grid.draw(right, x: grid.width - rightWidth - 1, y: 0, style: Theme.titleBar)
        }
    }

    static func drawStatusBar(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        let row = layout.statusRow
        var x = 0
        if state.isBusy {
            let frame = AppState.spinner[state.spinnerFrame % AppState.spinner.count]
            x += grid.draw(String(frame) + " ", x: x, y: row, style: Theme.key)
        } else {
            x += 2
        }
        let account: String =
            switch state.session {
            case .loggedOut: "not logged in"
            case .loggedIn(let email, let server): "\(email) @ \(server)"
            case .refreshing(let email, let server): "\(email) @ \(server) (refreshing the session)"
            case .expired(let email, _): "session expired" + (email.map { " for \($0)" } ?? "")
            }
        // Cards from the cache say so first: they may be out of date.
        let note = state.connection.statusText(utcOffsetSeconds: state.utcOffsetSeconds)
        let session = note.map { "\($0) · \(account)" } ?? account
        let sessionStyle: Style =
            if case .expired = state.session { Theme.warning } else if state.connection.isOffline { Theme.warning } else
            { Theme.muted }
        guard let message = state.message else {
            grid.draw(session, x: x, y: row, style: sessionStyle)
            return
        }
        // The message comes first: the session gets what it leaves, but at least 20 columns.
        let fullSession = DisplayWidth.of(TerminalText.escaped(session))
        let messageWidth = DisplayWidth.of(TerminalText.escaped(message.text))
        // The cache's note always shows whole: it says the cards may be out of date.
        let least = max(20, note.map { DisplayWidth.of($0) + 2 } ?? 0)
        let sessionWidth = min(fullSession, max(least, grid.width - x - 3 - messageWidth))
        x += grid.draw(session, x: x, y: row, width: sessionWidth, style: sessionStyle)
        x += grid.draw(" │ ", x: x, y: row, style: Theme.border)
        grid.draw(message.text, x: x, y: row, style: Theme.message(message.kind))
    }

    static func drawHints(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        let row = layout.hintsRow
        let hints = hints(for: state.activeKeyTables)
        var x = 1
        for hint in hints {
            let needed = DisplayWidth.of(hint.keys) + 1 + DisplayWidth.of(hint.text)
            guard x + needed <= grid.width else { return }
            x += grid.draw(hint.keys, x: x, y: row, style: Theme.key)
            x += 1
            x += grid.draw(hint.text, x: x, y: row, style: Theme.muted)
            x += 2
        }
    }

    /// The key hints of `tables`, help first so that it shows on the narrowest screen. A key an
    /// earlier table already binds shows only that table's hint (Enter "new line" in a field of
    /// several lines, not the form's Enter "save").
    static func hints(for tables: [KeyTable]) -> [KeyHint] {
        var seen = Set<KeyPattern>()
        var visible: [KeyBinding] = []
        for table in tables {
            for binding in table.bindings {
                let keys = binding.keys
                if binding.hint != nil, let first = keys.first, !seen.contains(first) { visible.append(binding) }
                seen.formUnion(keys)
            }
        }
        let bindings = visible
        let help = bindings.filter { $0.command == .global(.help) }
        let others = bindings.filter { $0.command != .global(.help) }
        return (help + others).compactMap(\.hint)
    }

    /// Draws a box with a border and a title, cleared inside, centred in `area` (rows; the
    /// screen's content rows when `nil`); returns its inner rectangle.
    static func drawBox(
        _ grid: inout Grid, title: String, width: Int, height: Int, layout: Layout, area: Range<Int>? = nil
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        let area = area ?? layout.content
        let width = min(width, grid.width - 2)
        let height = min(height, area.count)
        let x = max(0, (grid.width - width) / 2)
        let y = area.lowerBound + max(0, (area.count - height) / 2)
        grid.fill(x: x, y: y, width: width, height: height)
        let horizontal = String(repeating: "─", count: max(0, width - 2))
        grid.draw("┌" + horizontal + "┐", x: x, y: y, style: Theme.border)
        grid.draw("└" + horizontal + "┘", x: x, y: y + height - 1, style: Theme.border)
        for row in (y + 1)..<max(y + 1, y + height - 1) {
            grid.draw("│", x: x, y: row, style: Theme.border)
            grid.draw("│", x: x + width - 1, y: row, style: Theme.border)
        }
        grid.draw(" " + title + " ", x: x + 2, y: y, width: width - 4, style: Theme.label)
        return (x + 2, y + 1, width - 4, height - 2)
    }
}
