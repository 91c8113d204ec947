import CardModels

extension ListState {
    /// What the list makes of the outcome of a call it made.
    mutating func finished(_ call: ListCall, _ outcome: CallOutcome) -> [ListEffect] {
        switch call {
        case .page(let pageGeneration):
            guard pageGeneration == generation else { return [] }
            switch outcome {
            case .success(.cards(let page)):
                pageArrived(page)
                return [.clearMessage(about: .loadingCards)]
            case .success:
                pageDidFail()
                return []
            case .failure(let failure):
                let wasReloading = isReloading
                pageDidFail()
                if wasReloading {
                    let text = FailureText.status(failure, doing: "Reload failed (the list is as it was)")
                    return [.message(.error, text, about: .loadingCards)]
                }
                let text = FailureText.status(failure, doing: "Could not load cards")
                return [.message(.error, text, about: .loadingCards)]
            }
        case .delete(let card):
            switch outcome {
            case .success(.deleted(_, let backup)):
                keepingSelection(fallback: .same) { $0.remove(id: card.id) }
                marked.remove(card.id)
                return [.message(.success, "Deleted “\(card.name)”" + (backup == nil ? "" : " · u brings it back"))]
            case .success:
                keepingSelection(fallback: .same) { $0.remove(id: card.id) }
                marked.remove(card.id)
                return [.message(.success, "Deleted “\(card.name)”")]
            case .failure(let failure) where failure.kind == .notFound:
                keepingSelection(fallback: .same) { $0.remove(id: card.id) }
                return [.message(.info, "“\(card.name)” was already gone\(failure.codeNote)")]
            case .failure(let failure):
                return [.message(.error, FailureText.status(failure, doing: "Not deleted"))]
            }
        case .reorder:
            isReordering = false
            let queued = queuedReorder
            queuedReorder = nil
            if case .failure(let failure) = outcome {
                let text = FailureText.status(failure, doing: "The new order was not saved; reloading the server's")
                return [.message(.error, text)] + reload()
            }
            if let queued { return saveOrder(queued) }
            return []
        case .restore(let name, let position):
            switch outcome {
            case .success(.card(let restored)):
                // Back where it was in the wallet, when the whole wallet is here to say where.
                var order = cards.walletIDs
                if let position, cards.isComplete, let at = order.firstIndex(of: restored.id), at != position {
                    order.remove(at: at)
                    order.insert(restored.id, at: min(position, order.count))
                    return [.message(.success, "Brought back “\(name)”")] + saveOrderMoving(restored.id, to: order)
                }
                return [.message(.success, "Brought back “\(name)”")]
            case .success:
                return []
            case .failure(let failure):
                return [.message(.error, FailureText.status(failure, doing: "Could not bring back “\(name)”"))]
            }
        case .cacheSearch:
            // Cards matching in a field the list does not hold join the filter's matches.
            guard case .success(.cacheMatches(let query, let ids, let fields)) = outcome, query == cards.query else {
                return []
            }
            keepingSelection(fallback: .first) { $0.addMatches(ids: Set(ids), for: query) }
            fieldMatches = FieldMatches(query: query, byID: fields)
            return []
        case .loadForEdit:
            switch outcome {
            case .success(.card(let card)):
                return [.edit(card)]
            case .success:
                return []
            case .failure(let failure) where failure.kind == .notFound:
                return [.message(.warning, "That card no longer exists\(failure.codeNote)")]
            case .failure(let failure):
                return [.message(.error, FailureText.status(failure, doing: "Could not load the card"))]
            }
        }
    }

    /// The cache's cards, shown while the server's first page is on its way (which replaces
    /// them in one step); `false` when the server's cards are here already.
    mutating func showCached(_ page: CardPage) -> Bool {
        guard !hasLoaded else { return false }
        let loading = isLoadingPage
        pageArrived(page)
        isLoadingPage = loading
        isReloading = loading
        return true
    }

    /// Moves card `id` to where `order` has it, on screen and on the server.
    private mutating func saveOrderMoving(_ id: String, to order: [String]) -> [ListEffect] {
        guard let from = cards.walletIDs.firstIndex(of: id), let to = order.firstIndex(of: id) else { return [] }
        var position = from
        while position != to {
            let step = to > position ? 1 : -1
            guard cards.moveInWallet(from: position, by: step) else { break }
            position += step
        }
        return saveOrder(cards.walletIDs)
    }
}
