import CardModels

extension Renderer {
    static func drawConfirm(_ grid: inout Grid, _ question: ConfirmState, _ layout: Layout) {
        let width = min(max(40, DisplayWidth.of(TerminalText.escaped(question.question)) + 6), grid.width - 4)
        let box = drawBox(&grid, title: "Confirm", width: width, height: 6, layout: layout)
        grid.draw(question.question, x: box.x, y: box.y, width: box.width)
        let no = "[ No ]"
        let yes = "[ Yes ]"
        let y = box.y + 2
        grid.draw(no, x: box.x, y: y, style: question.isYesHighlighted ? Style() : Theme.selection)
        grid.draw(yes, x: box.x + 8, y: y, style: question.isYesHighlighted ? Theme.selection : Style())
        grid.draw("y/n", x: box.x + 17, y: y, style: Theme.muted)
    }

    static func drawReauth(_ grid: inout Grid, _ reauth: AppState.ReauthState, _ layout: Layout) {
        // The dialog needs 13 rows; when the log pane leaves the screen fewer, it covers the pane.
        // A browser login's address needs the screen's width and a row per width of it.
        let waiting = reauth.login.isWaitingForBrowser
        let width = waiting ? max(72, grid.width - 4) : 72
        let addressRows = reauth.login.browserAddress.map { ($0.count + width - 5) / max(1, width - 4) } ?? 0
        let height = 13 + (waiting ? 1 + addressRows : 0)
        let area = layout.content.count >= height ? layout.content : 1..<layout.statusRow
        let title = "Session expired" + UIFailure.note(reauth.serverCode)
        let box = drawBox(&grid, title: title, width: width, height: height, layout: layout, area: area)
        let bottom = box.y + box.height
        grid.draw("Log in again to carry on; nothing you typed is lost.", x: box.x, y: box.y, width: box.width)
        if !reauth.replay.isEmpty {
            let count = reauth.replay.count
            grid.draw(
                "\(count) request\(count == 1 ? "" : "s") will be sent again after the login.",
                x: box.x, y: box.y + 1, width: box.width, style: Theme.muted)
        }
        let top = box.height >= height - 2 ? box.y + 3 : box.y + 2
        drawLoginFields(&grid, reauth.login, x: box.x, y: top, width: box.width, bottom: bottom)
    }

    static func drawHelp(_ grid: inout Grid, _ state: AppState, _ layout: Layout, scroll: Int) {
        let lines = state.helpLines
        let top = layout.content.lowerBound
        grid.fill(x: 0, y: top, width: grid.width, height: layout.content.count)
        grid.draw("Keys (Esc closes)", x: 1, y: top, style: Theme.columnTitle)
        let viewport = layout.pageViewport
        let scroll = min(scroll, max(0, lines.count - viewport))
        let keyWidth = 22
        for (offset, line) in lines.dropFirst(scroll).prefix(viewport).enumerated() {
            let y = top + 1 + offset
            if line.isTitle {
                grid.draw(line.keys, x: 1, y: y, style: Theme.label)
            } else {
                grid.draw(line.keys, x: 3, y: y, width: keyWidth - 1, style: Theme.key)
                grid.draw(line.summary, x: 3 + keyWidth, y: y, width: grid.width - keyWidth - 4)
            }
        }
    }

    static func drawLogPane(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        guard let pane = layout.logPane else { return }
        let log = state.log
        let shown = log.shownIndices
        var title: String
        if log.failuresOnly {
            title =
                shown.isEmpty
                ? " Network log · no failures" : " Network log · \(shown.count) failure\(shown.count == 1 ? "" : "s")"
        } else {
            title = " Network log · \(shown.count) line\(shown.count == 1 ? "" : "s")"
        }
        title += state.focus == .log ? " · Esc back · f failures · Enter detail" : " · Tab to browse · L size · l hide"
        grid.fill(x: 0, y: pane.lowerBound, width: grid.width, height: 1, style: Theme.paneTitle)
        grid.draw(title, x: 0, y: pane.lowerBound, style: Theme.paneTitle)
        let viewport = layout.logViewport
        // Without the keyboard the pane always follows the newest line.
        let selected =
            state.focus == .log
            ? log.selectedID.flatMap { id in shown.firstIndex { log.buffer[$0].id == id } } ?? (shown.count - 1)
            : shown.count - 1
        let first = max(0, min(selected - viewport + 1, shown.count - viewport))
        let end = min(shown.count, first + viewport)
        guard first < end else { return }
        for position in first..<end {
            let line = log.buffer[shown[position]]
            let y = pane.lowerBound + 1 + position - first
            let isSelected = state.focus == .log && position == selected
            var style = line.isFailure ? Theme.error : Style()
            if isSelected {
                style.attributes.insert(.reverse)
                grid.fill(x: 0, y: y, width: grid.width, height: 1, style: style)
            }
            grid.draw(
                LogFormat.summary(line, utcOffsetSeconds: state.utcOffsetSeconds), x: 1, y: y, width: grid.width - 2,
                style: style)
        }
    }
}
