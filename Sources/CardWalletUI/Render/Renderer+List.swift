import CardModels

extension Renderer {
    /// A column of the card list.
    enum Column: CaseIterable {
        case name, company, title, email
        /// The book a card is in (the All view only).
        case book

        var title: String {
            switch self {
            case .name: "Name"
            case .company: "Company"
            case .title: "Title"
            case .email: "Email"
            case .book: "Book"
            }
        }

        /// The card field the column shows (none for the book).
        var field: CardField? {
            switch self {
            case .name: .name
            case .company: .company
            case .title: .title
            case .email: .email
            case .book: nil
            }
        }

        func value(of card: CardSummary, in list: ListState) -> String {
            switch self {
            case .name: card.name
            case .company: card.company ?? ""
            case .title: card.title ?? ""
            case .email: card.email ?? ""
            case .book: list.bookLabel(of: card.id) ?? ""
            }
        }
    }

    /// The list's columns and their x and width for a screen `width` columns wide: all four
    /// from 80 columns, without the title below that; with `books` (the All view) a BOOK
    /// column last, the others narrower.
    static func columns(width: Int, books: Bool = false) -> [(column: Column, x: Int, width: Int)] {
        let plan: [(Column, Int)] =
            switch (width >= 80, books) {
            case (true, false): [(.name, 28), (.company, 24), (.title, 20), (.email, 28)]
            case (false, false): [(.name, 36), (.company, 30), (.email, 34)]
            case (true, true): [(.name, 25), (.company, 20), (.title, 16), (.email, 24), (.book, 15)]
            case (false, true): [(.name, 30), (.company, 22), (.email, 28), (.book, 20)]
            }
        let gap = 2
        let available = max(0, width - 2 - gap * (plan.count - 1))
        var result: [(column: Column, x: Int, width: Int)] = []
        var x = 1
        for (index, (column, weight)) in plan.enumerated() {
            let columnWidth = index == plan.count - 1 ? max(0, width - 1 - x) : available * weight / 100
            result.append((column, x, columnWidth))
            x += columnWidth + gap
        }
        return result
    }

    static func drawList(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        let list = state.list
        let cards = list.cards
        let columns = columns(width: grid.width, books: list.showsAllBooks)
        // The field a search matched takes the end of the last column of the card's own (not the book's).
        let noteColumn = columns.lastIndex { $0.column != .book } ?? columns.count - 1
        let headerRow = layout.content.lowerBound
        for (column, x, width) in columns {
            grid.draw(column.title, x: x, y: headerRow, width: width, style: Theme.columnTitle)
        }
        let showsFilter = list.isEditingFilter || !cards.query.isEmpty
        let viewport = layout.listViewport(showsFilter: showsFilter)
        let firstRow = headerRow + 1
        let rows = cards.rows

        if rows.isEmpty {
            let text: String
            if case .offline(nil, _, _) = state.connection, !cards.isTotalKnown {
                text = "Server unreachable, no cards cached yet for this account: retrying (r: now)"
            } else if !list.hasLoaded || (!cards.isTotalKnown && list.isLoadingPage) {
                text = "Loading cards…"
            } else if !cards.isTotalKnown {
                text = "The cards could not be loaded: press r to try again (l shows the network log)"
            } else if cards.isFiltered {
                text =
                    cards.isComplete
                    ? "No card matches “\(cards.query)”" : "No match among the cards loaded so far; loading more…"
            } else if cards.total == 0 {
                text = "No cards yet: press a to add one"
            } else {
                text = "Loading cards…"
            }
            grid.draw(text, x: 1, y: firstRow, style: Theme.muted)
        }

        let selectionStyle = state.focus == .screen ? Theme.selection : Theme.inactiveSelection
        let end = min(rows.count, list.scrollTop + viewport)
        if list.scrollTop < end {
            for row in list.scrollTop..<end {
                let y = firstRow + row - list.scrollTop
                let card = cards.summary(atIndex: rows[row])
                let isSelected = row == list.selection
                let style = isSelected ? selectionStyle : Style()
                if isSelected { grid.fill(x: 0, y: y, width: grid.width, height: 1, style: style) }
                if list.marked.contains(card.id) {
                    grid.draw("*", x: 0, y: y, style: isSelected ? style : Theme.key)
                } else if state.offlineChanges.cardIDs.contains(card.id) {
                    // Changed offline: waits in the outbox for the server.
                    grid.draw("↑", x: 0, y: y, style: isSelected ? style : Theme.warning)
                }
                let match = hiddenMatch(of: card, state, columns)
                for (index, (column, x, width)) in columns.enumerated() {
                    let value = column.value(of: card, in: list)
                    guard index == noteColumn, let match else {
                        grid.draw(value, x: x, y: y, width: width, style: style)
                        continue
                    }
                    // The field that matched takes the end of the last column, as much of it as
                    // it needs: while filtering it says more than the email it covers, which
                    // keeps what is left when that is at least six columns.
                    let note = match.field.label.lowercased() + ": " + match.excerpt
                    // Drawing escapes it; its width is the escaped text's.
                    let noteWidth = min(DisplayWidth.of(TerminalText.escaped(note)), width)
                    let rest = width - noteWidth - 1
                    let valueWidth = value.isEmpty || rest < 6 ? 0 : rest
                    grid.draw(value, x: x, y: y, width: valueWidth, style: style)
                    grid.draw(
                        note, x: x + width - noteWidth, y: y, width: noteWidth,
                        style: isSelected ? style : Theme.muted)
                }
            }
        }
        if !cards.isComplete, list.hasLoaded, end == rows.count, end - list.scrollTop < viewport, !rows.isEmpty {
            grid.draw(
                list.isPagingPaused ? "More cards could not load: press r to retry" : "Loading more…",
                x: 1, y: firstRow + end - list.scrollTop, style: Theme.muted)
        }
        if showsFilter { drawFilterPrompt(&grid, state, y: layout.content.upperBound - 1) }
    }

    /// What the cache's search matched in card `card`, when that field is not among the
    /// `columns` shown (a phone number, a bio, a tag… or the title on a narrow screen).
    static func hiddenMatch(
        of card: CardSummary, _ state: AppState, _ columns: [(column: Column, x: Int, width: Int)]
    ) -> FieldMatch? {
        let cards = state.list.cards
        guard cards.isFiltered,
            let match = state.list.fieldMatches.match(for: card.id, query: cards.query),
            !columns.contains(where: { $0.column.field == match.field })
        else { return nil }
        return match
    }

    static func drawFilterPrompt(_ grid: inout Grid, _ state: AppState, y: Int) {
        let cards = state.list.cards
        var x = 1 + grid.draw("Filter /", x: 1, y: y, style: Theme.key)
        x += 1
        let count = cards.rows.count
        let status =
            cards.isFiltered
            ? "\(count) match\(count == 1 ? "" : "es")" + (cards.isComplete ? "" : " in \(cards.loadedCount) loaded")
            : (state.list.isEditingFilter ? (state.searchesCache ? "every field" : "name, company, title, email") : "")
        let statusWidth = DisplayWidth.of(status)
        let room = max(1, grid.width - x - statusWidth - 4)
        x += grid.draw(TextLayout.clipLeading(TerminalText.escaped(cards.query), to: room), x: x, y: y, width: room)
        if state.list.isEditingFilter { grid.draw(" ", x: x, y: y, width: 1, style: Theme.cursor) }
        if !status.isEmpty { grid.draw(status, x: grid.width - statusWidth - 1, y: y, style: Theme.muted) }
    }
}
