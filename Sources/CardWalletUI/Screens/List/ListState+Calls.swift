import CardModels

extension ListState {
    /// What the list makes of the outcome of a call it made.
    mutating func finished(_ call: ListCall, _ outcome: APIOutcome) -> [ListEffect] {
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
            case .success:
                keepingSelection(fallback: .same) { $0.remove(id: card.id) }
                return [.message(.success, "Deleted “\(card.name)”")]
            case .failure(let failure) where failure.kind == .notFound:
                keepingSelection(fallback: .same) { $0.remove(id: card.id) }
                return [.message(.info, "“\(card.name)” was already gone (E05)")]
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
        case .loadForEdit:
            switch outcome {
            case .success(.card(let card)):
                return [.edit(card)]
            case .success:
                return []
            case .failure(let failure) where failure.kind == .notFound:
                return [.message(.warning, "That card no longer exists (E05)")]
            case .failure(let failure):
                return [.message(.error, FailureText.status(failure, doing: "Could not load the card"))]
            }
        }
    }
}
