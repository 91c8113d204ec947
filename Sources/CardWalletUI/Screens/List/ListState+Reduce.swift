import CardModels

extension ListState {
    /// Applies `action`; `viewport` is how many card rows the screen shows.
    ///
    /// - Returns: What the app should do, in order.
    public mutating func reduce(_ action: ListAction, viewport: Int) -> [ListEffect] {
        let viewport = max(1, viewport)
        var effects: [ListEffect] = []
        switch action {
        case .command(let command):
            // A key's answer is about the list as it is on screen: stale once it is not.
            effects = apply(command, viewport: viewport).map { effect in
                if case .message(let kind, let text, nil) = effect { return .message(kind, text, about: .listScreen) }
                return effect
            }
        case .filter(let command, let typed):
            effects = apply(command, typed: typed, viewport: viewport)
        case .finished(let call, let outcome):
            effects = finished(call, outcome)
        case .pasteFilter(let text):
            let typed = text.filter { !$0.isControl }
            if !typed.isEmpty { keepingSelection(fallback: .first) { $0.setQuery($0.query + typed) } }
        case .pageLoaded(let page):
            pageArrived(page)
        case .pageFailed:
            pageDidFail()
        case .cardSaved(let summary, let isNew):
            if isNew {
                cards.insert(summary)
                if let index = cards.index(ofID: summary.id), let row = cards.row(ofIndex: index) { selection = row }
            } else {
                keepingSelection(fallback: .same) { $0.update(summary) }
            }
        case .cardRemoved(let id):
            keepingSelection(fallback: .same) { $0.remove(id: id) }
            marked.remove(id)
        case .reload:
            effects = reload()
        }
        settle(viewport: viewport)
        if let load = loadAheadIfNeeded(viewport: viewport) { effects.append(load) }
        return effects
    }

    /// Adds a page of the wallet, keeping the selection (or selecting the card a reload was
    /// asked for on).
    mutating func pageArrived(_ page: CardPage) {
        isLoadingPage = false
        hasLoaded = true
        if isReloading {
            // The server's wallet replaces what was shown, in one step: no blank list between.
            // The cursor stays on the card it is on, moved there while the cache's cards were
            // shown as much as by a reload (which said so already).
            isReloading = false
            if reselectID == nil, let selected = selectedCard?.id {
                reselectID = selected
                reselectRow = selection
            }
            cards.removeAll()
            selection = 0
        }
        keepingSelection(fallback: .same) { $0.append(page) }
        if let id = reselectID, let index = cards.index(ofID: id), let row = cards.row(ofIndex: index) {
            selection = row
        } else if let row = reselectRow, !cards.rows.isEmpty {
            selection = min(row, cards.rows.count - 1)
        }
        reselectID = nil
        reselectRow = nil
    }

    /// The whole list again, from the background sync: it replaces the cards in place, the
    /// sort and the filter kept, the cursor on the card it was on (at the same height on the
    /// screen), marks on the cards still there.
    mutating func syncArrived(_ page: CardPage, viewport: Int) {
        let selected = selectedCard?.id
        let height = selection - scrollTop
        cards.removeAll()
        cards.append(page)
        marked = marked.filter { cards.index(ofID: $0) != nil }
        if let selected, let index = cards.index(ofID: selected), let row = cards.row(ofIndex: index) {
            selection = row
            scrollTop = max(0, row - height)
        } else {
            selection = max(0, min(selection, cards.rows.count - 1))
        }
        settle(viewport: max(1, viewport))
    }

    /// Stops loading ahead after a page failed, until the user asks again.
    mutating func pageDidFail() {
        isLoadingPage = false
        hasLoaded = true
        isPagingPaused = true
        // A reload that failed keeps the cards shown before it.
        isReloading = false
    }

    private mutating func apply(_ command: ListCommand, viewport: Int) -> [ListEffect] {
        switch command {
        case .move(let scroll):
            if scroll == .down || scroll == .bottom || scroll == .pageDown { isPagingPaused = false }
            move(scroll, viewport: viewport)
        case .startFilter:
            isEditingFilter = true
        case .clearMarks:
            marked = []
        case .clearFilter:
            guard cards.isFiltered || !cards.query.isEmpty else {
                if !marked.isEmpty { marked = [] }
                return []
            }
            keepingSelection(fallback: .first) { $0.setQuery("") }
        case .nextMatch, .previousMatch:
            guard cards.isFiltered else { return [.message(.info, "No filter: press / and type to find cards")] }
            let count = cards.rows.count
            guard count > 0 else { return [.message(.info, "No card matches “\(cards.query)”")] }
            let step = command == .nextMatch ? 1 : -1
            let next = selection + step
            selection = (next + count) % count
            if next >= count { return [.message(.info, "Search wrapped to the first match")] }
            if next < 0 { return [.message(.info, "Search wrapped to the last match")] }
        case .cycleSort:
            let order = cards.sortOrder.next
            keepingSelection(fallback: .first) { $0.setSortOrder(order) }
            let scope = cards.isComplete ? "" : " (the \(cards.loadedCount) loaded cards)"
            return [.message(.info, "Sorted by \(order.label)\(scope)")]
        case .moveCardDown, .moveCardUp:
            return moveCard(by: command == .moveCardDown ? 1 : -1)
        case .delete where !marked.isEmpty:
            let chosen = cards.wallet.map { cards.summary(atIndex: $0) }.filter { marked.contains($0.id) }
            return [.deleteMarked(chosen)]
        case .toggleMark:
            guard let card = selectedCard else { return [.message(.info, "No card selected")] }
            if marked.remove(card.id) == nil { marked.insert(card.id) }
            move(.down, viewport: viewport)
        case .undoDelete:
            return [.undoDelete]
        case .exportCards where !marked.isEmpty:
            let chosen = cards.wallet.map { cards.summary(atIndex: $0) }.filter { marked.contains($0.id) }
            return [.export(.ids(chosen.map(\.id)), label: "the \(chosen.count) marked cards", name: nil)]
        case .exportCards:
            guard let card = selectedCard else { return [.message(.info, "No card selected: X exports every card")] }
            return [.export(.ids([card.id]), label: "“\(card.name)”", name: card.name)]
        case .exportAll:
            let count = cards.isTotalKnown ? "\(cards.total) " : ""
            return [.export(.all, label: "all \(count)cards", name: nil)]
        case .importCards:
            return [.importCards]
        case .open, .edit, .delete:
            guard let card = selectedCard else { return [.message(.info, "No card selected")] }
            switch command {
            case .open: return [.open(card)]
            case .edit:
                return [
                    .message(.info, "Loading “\(card.name)” to edit…"),
                    .call(.loadCard(id: card.id), then: .loadForEdit(id: card.id)),
                ]
            default: return [.delete(card)]
            }
        case .add:
            return [.add]
        case .reload:
            return reload()
        case .logOut:
            return [.logOut]
        case .quit:
            return [.quit]
        }
        return []
    }

    private mutating func apply(_ command: FilterCommand, typed: Character?, viewport: Int) -> [ListEffect] {
        switch command {
        case .insert:
            guard let typed, !typed.isControl else { return [] }
            let query = cards.query + String(typed)
            keepingSelection(fallback: .first) { $0.setQuery(query) }
        case .deleteBackward:
            guard !cards.query.isEmpty else {
                isEditingFilter = false
                return []
            }
            let query = String(cards.query.dropLast())
            keepingSelection(fallback: .first) { $0.setQuery(query) }
        case .clear:
            keepingSelection(fallback: .first) { $0.setQuery("") }
        case .accept:
            isEditingFilter = false
        case .cancel:
            isEditingFilter = false
            keepingSelection(fallback: .first) { $0.setQuery("") }
        case .move(let scroll):
            move(scroll, viewport: viewport)
        }
        return []
    }

    mutating func reload() -> [ListEffect] {
        if let selected = selectedCard?.id {
            reselectID = selected
            reselectRow = selection
        }
        generation += 1
        if hasLoaded, cards.isTotalKnown {
            // What is shown stays until the server's first page replaces it.
            isReloading = true
        } else {
            cards.removeAll()
            selection = 0
            scrollTop = 0
            hasLoaded = false
        }
        isPagingPaused = false
        isLoadingPage = true
        return [loadPage(offset: 0)]
    }

    /// The call for `pageSize` cards from `offset` (wallet order), for the list as it is now.
    private func loadPage(offset: Int) -> ListEffect {
        .call(.loadCards(offset: offset, limit: pageSize, query: nil), then: .page(generation: generation))
    }

    private mutating func move(_ scroll: ScrollCommand, viewport: Int) {
        let count = cards.rows.count
        guard count > 0 else { return }
        let half = max(1, viewport / 2)
        switch scroll {
        case .up: selection -= 1
        case .down: selection += 1
        case .top: selection = 0
        case .bottom: selection = count - 1
        case .pageDown:
            selection += viewport
            scrollTop += viewport
        case .pageUp:
            selection -= viewport
            scrollTop -= viewport
        case .halfPageDown:
            selection += half
            scrollTop += half
        case .halfPageUp:
            selection -= half
            scrollTop -= half
        }
    }

    private mutating func moveCard(by offset: Int) -> [ListEffect] {
        guard cards.sortOrder == .wallet else {
            return [
                .message(
                    .warning, "Cards move only in wallet order (sorted by \(cards.sortOrder.label)): press s to go back"
                )
            ]
        }
        guard !cards.isFiltered else {
            return [.message(.warning, "Clear the filter (Esc) to move cards in the wallet")]
        }
        guard cards.isComplete else {
            isPagingPaused = false
            var effects: [ListEffect] = [
                .message(.info, "Loading the whole wallet before moving cards (\(cards.loadedCount) of \(cards.total))")
            ]
            if !isLoadingPage {
                isLoadingPage = true
                effects.append(loadPage(offset: cards.loadedCount))
            }
            return effects
        }
        guard selectedCard != nil, cards.moveInWallet(from: selection, by: offset) else { return [] }
        selection += offset
        return saveOrder(cards.walletIDs)
    }

    /// Sends `order`, or keeps it for when the reorder in flight is done.
    mutating func saveOrder(_ order: [String]) -> [ListEffect] {
        guard !isReordering else {
            queuedReorder = order
            return []
        }
        isReordering = true
        return [.call(.reorderCards(order: order), then: .reorder)]
    }

    /// Where the selection goes when its card is no longer shown.
    enum SelectionFallback { case same, first }

    /// Runs `change` on the cards and selects the same card again if it is still shown.
    mutating func keepingSelection(fallback: SelectionFallback, _ change: (inout CardCollection) -> Void) {
        let selected = cards.rows.indices.contains(selection) ? cards.rows[selection] : nil
        change(&cards)
        if let selected, let row = cards.row(ofIndex: selected) {
            selection = row
        } else if fallback == .first {
            selection = 0
        }
    }

    /// Clamps the selection and scrolls so it stays visible.
    mutating func settle(viewport: Int) {
        let count = cards.rows.count
        selection = min(max(0, selection), max(0, count - 1))
        if selection < scrollTop { scrollTop = selection }
        if selection >= scrollTop + viewport { scrollTop = selection - viewport + 1 }
        scrollTop = min(max(0, scrollTop), max(0, count - viewport))
    }

    /// Asks for the next page when the selection is within a screen of the end of what is
    /// loaded (or the filtered rows are too few to fill the screen) and more cards exist.
    mutating func loadAheadIfNeeded(viewport: Int) -> ListEffect? {
        guard hasLoaded, !isLoadingPage, !isPagingPaused, !cards.isComplete else { return nil }
        guard cards.rows.count - selection <= viewport * 2 else { return nil }
        isLoadingPage = true
        return loadPage(offset: cards.loadedCount)
    }
}

extension Character {
    /// Whether the character is a control character (which never goes into a text field).
    var isControl: Bool {
        guard let first = unicodeScalars.first else { return true }
        return first.value < 0x20 || (0x7F...0x9F).contains(first.value)
    }
}
