import CardModels

extension AppState {
    /// Routes a request's result by why it was made. Results nobody waits for any more (a
    /// page of a list since reloaded, say) change nothing.
    mutating func complete(_ id: RequestID, _ result: Result<Response, UIFailure>) -> [Effect] {
        guard let pending = pending.removeValue(forKey: id) else { return [] }
        if case .failure(let failure) = result, failure.kind == .sessionExpired {
            switch pending.purpose {
            case .logIn, .reauth, .logOut:
                break
            default:
                openReauth(replaying: pending)
                return []
            }
        }
        switch pending.purpose {
        case .logIn:
            return loggedIn(result)
        case .reauth:
            return reauthenticated(result)
        case .loadPage(let generation):
            guard generation == list.generation else { return [] }
            switch result {
            case .success(.cards(let page)):
                if message?.topic == .loadingCards { message = nil }
                return reduceList(.pageLoaded(page))
            case .success:
                return reduceList(.pageFailed)
            case .failure(let failure):
                showFailure(failure, doing: "Could not load cards", topic: .loadingCards)
                return reduceList(.pageFailed)
            }
        case .openCard(let id):
            switch result {
            case .success(.card(let card)):
                if detail?.id == id { _ = reduceDetail(.loaded(card)) }
                _ = reduceList(.cardSaved(card.summary, isNew: false))
            case .success:
                break
            case .failure(let failure):
                if failure.kind == .notFound { return cardIsGone(id) }
                if detail?.id == id { _ = reduceDetail(.loadFailed) }
                showFailure(failure, doing: "Could not load the card")
            }
        case .editCard(let id):
            switch result {
            case .success(.card(let card)):
                guard screen == .list, modal == nil else { break }
                form = FormState(editing: card, returnsToDetail: false)
                screen = .form
                message = nil
            case .success:
                break
            case .failure(let failure):
                if failure.kind == .notFound { return cardIsGone(id) }
                showFailure(failure, doing: "Could not load the card")
            }
        case .save:
            return saved(result, request: pending.request)
        case .delete(let card):
            switch result {
            case .success:
                removeCard(card.id)
                showMessage(.success, "Deleted “\(card.name)”")
            case .failure(let failure):
                if failure.kind == .notFound {
                    removeCard(card.id)
                    showMessage(.info, "“\(card.name)” was already gone (E05)")
                } else {
                    showFailure(failure, doing: "Not deleted")
                }
            }
        case .reorder:
            let queued = queuedReorder
            queuedReorder = nil
            if case .failure(let failure) = result {
                showFailure(failure, doing: "The new order was not saved; reloading the server's")
                return reduceList(.reload)
            }
            if let queued { return [request(.reorderCards(order: queued), .reorder)] }
        case .fetchConflict(let id):
            switch result {
            case .success(.card(let card)):
                guard case .edit(let editing, _)? = form?.mode, editing == id else { break }
                return reduceForm(.serverVersion(card))
            case .success:
                break
            case .failure(let failure):
                showFailure(failure, doing: "Could not fetch the server's version")
            }
        case .logOut:
            session = .loggedOut
            returnToLogin()
            if case .failure(let failure) = result {
                showMessage(.warning, "Logged out here; the server was not told: \(failure.message)")
            } else {
                showMessage(.info, "Logged out")
            }
        }
        return []
    }

    private mutating func loggedIn(_ result: Result<Response, UIFailure>) -> [Effect] {
        switch result {
        case .success(let response):
            _ = reduceLogin(.succeeded)
            if case .loggedIn(let email, let server) = response { session = .loggedIn(email: email, server: server) }
            guard screen == .login else { return [] }
            return enterList()
        case .failure(let failure):
            return reduceLogin(.failed(failure))
        }
    }

    private mutating func reauthenticated(_ result: Result<Response, UIFailure>) -> [Effect] {
        guard var reauth else { return [] }
        switch result {
        case .failure(let failure):
            _ = reauth.login.reduce(.failed(failure))
            self.reauth = reauth
            return []
        case .success(let response):
            if case .loggedIn(let email, let server) = response { session = .loggedIn(email: email, server: server) }
            self.reauth = nil
            let email = session.email ?? reauth.login.email.text
            if let previous = reauth.previousEmail, previous.lowercased() != email.lowercased() {
                showMessage(.info, "Logged in as \(email): showing that account's cards")
                return enterList()
            }
            showMessage(.success, "Logged in again; carrying on")
            return reauth.replay.map { request($0.request, $0.purpose) }
        }
    }

    private mutating func saved(_ result: Result<Response, UIFailure>, request: Request) -> [Effect] {
        let isNew = if case .createCard = request { true } else { false }
        if case .success(.card(let card)) = result {
            // The list learns of the card even if the form was closed while it was saving.
            _ = reduceList(.cardSaved(card.summary, isNew: isNew))
            if detail?.id == card.id { _ = reduceDetail(.loaded(card)) }
        }
        guard var form else { return [] }
        switch result {
        case .success(.card(let card)):
            if isNew {
                self.form = nil
                detail = DetailState(summary: card.summary, card: card)
                screen = .detail
                showMessage(.success, "Added “\(card.fields.name)”")
            } else {
                leaveForm()
                showMessage(.success, "Saved “\(card.fields.name)”")
            }
            return []
        case .success:
            form.isSaving = false
            self.form = form
            return []
        case .failure(let failure):
            if failure.kind == .notFound, case .edit(let id, _) = form.mode {
                _ = reduceList(.cardRemoved(id: id))
                form.isSaving = false
                self.form = form
                showMessage(.error, "This card was deleted on the server (E05); your text is still here")
                return []
            }
            let effects = reduceForm(.saveFailed(failure))
            if case .rateLimited = failure.kind { showFailure(failure, doing: "Not saved") }
            return effects
        }
    }

    /// The server says card `id` is gone: drop it, close its screens, and say so.
    private mutating func cardIsGone(_ id: String) -> [Effect] {
        removeCard(id)
        showMessage(.warning, "That card no longer exists (E05)")
        return []
    }

    private mutating func removeCard(_ id: String) {
        _ = reduceList(.cardRemoved(id: id))
        if detail?.id == id {
            detail = nil
            if screen == .detail { screen = .list }
        }
    }

    /// Shows a failure in the status bar, in the error style: short enough to read in one
    /// line; the log pane keeps the server's whole answer.
    mutating func showFailure(_ failure: UIFailure, doing what: String, topic: StatusMessage.Topic? = nil) {
        let text: String = switch failure.kind {
        case .rateLimited(let seconds):
            "\(what): too many requests (E10); try again \(seconds.map { "in \($0) s" } ?? "shortly")"
        case .cannotConnect(let url):
            "\(what): cannot connect to \(url) (\(failure.message))"
        case .server(let status?):
            "\(what): server error \(status); see the log (l)"
        default:
            "\(what): \(failure.message)"
        }
        showMessage(.error, text, topic: topic)
    }

    /// Follows the session's own news (from the session's state stream).
    mutating func sessionChanged(_ status: SessionStatus) -> [Effect] {
        switch status {
        case .loggedIn:
            if case .expired = session, reauth != nil { return [] }
            session = status
            // A session restored from the token store: skip the login form.
            if screen == .login, !login.isSubmitting { return enterList() }
        case .refreshing:
            if case .expired = session { return [] }
            session = status
        case .expired:
            session = status
            if screen != .login { openReauth(replaying: nil) }
        case .loggedOut:
            session = status
        }
        return []
    }
}
