import CardModels

extension AppState {
    // MARK: Screens' reducers, and what their effects mean for the app

    mutating func reduceList(_ action: ListAction) -> [Effect] {
        let query = list.cards.query
        let effects = list.reduce(action, viewport: listViewport)
        // The in-memory filter answers at once; the cache's search over every field adds to it.
        guard searchesCache, list.cards.query != query, list.cards.isFiltered else { return mapList(effects) }
        return mapList(effects) + [call(.searchCache(query: list.cards.query), route: .list(.cacheSearch))]
    }

    mutating func mapList(_ effects: [ListEffect]) -> [Effect] {
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .call(let call, let tag):
                result.append(self.call(call, route: .list(tag)))
            case .open(let card):
                detail = DetailState(summary: card)
                screen = .detail
                result += reduceDetail(.command(.reload))
            case .edit(let card):
                // The user may have moved on while the card loaded.
                guard screen == .list, modal == nil, overlay == nil else { break }
                form = FormState(editing: card, returnsToDetail: false)
                screen = .form
                message = nil
            case .add:
                form = FormState()
                screen = .form
            case .delete(let card):
                modal = .confirm(ConfirmState(.deleteCard(card)))
            case .deleteMarked(let cards):
                modal = .confirm(ConfirmState(.deleteCards(cards)))
            case .undoDelete:
                result += undoDelete()
            case .export(let cards, let label, let name):
                transfer = TransferState(exporting: cards, label: label, name: name)
            case .importCards:
                transfer = TransferState(importingFrom: "")
            case .logOut:
                result.append(call(.logOut, route: .logOut))
            case .quit:
                result += quit()
            case .message(let kind, let text, let topic):
                showMessage(kind, text, topic: topic)
            case .clearMessage(let topic):
                if message?.topic == topic { message = nil }
            }
        }
        return result
    }

    mutating func reduceDetail(_ action: DetailAction) -> [Effect] {
        guard var detail else { return [] }
        let effects: [DetailEffect]
        if case .settle(let box, let qrBox) = action {
            // After every action: no need to count the lines.
            effects = detail.settle(pictureBox: box, qrBox: qrBox)
        } else {
            let lines = DetailLines.make(detail, width: detailLayout.textWidth).count
            effects = detail.reduce(action, viewport: layout.content.count, lineCount: lines)
        }
        self.detail = detail
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .edit(let card):
                form = FormState(editing: card, returnsToDetail: true)
                screen = .form
            case .delete(let card):
                modal = .confirm(ConfirmState(.deleteCard(card)))
            case .call(let call, let tag):
                result.append(self.call(call, route: .detail(tag)))
            case .back:
                self.detail = nil
                screen = .list
            case .copy(let text, let what):
                result.append(.copyToClipboard(text))
                showMessage(.success, "Copied \(what) to the clipboard (through the terminal: OSC 52)")
            case .open(let url):
                result.append(.openExternally(url))
            case .message(let kind, let text):
                showMessage(kind, text)
            case .terminal(let bytes):
                result.append(.writeToTerminal(bytes))
            case .export(let card):
                transfer = TransferState(exporting: .ids([card.id]), label: "“\(card.name)”", name: card.name)
            }
        }
        return result
    }

    mutating func reduceForm(_ action: FormAction) -> [Effect] {
        guard var form else { return [] }
        let effects = form.reduce(action)
        self.form = form
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .call(let call, let tag):
                // What the last attempt said is stale now; "saving…" shows instead.
                if tag == .save { message = nil }
                result.append(self.call(call, route: .form(tag)))
            case .saved(let card, let isNew):
                if isNew {
                    self.form = nil
                    detail = DetailState(summary: card.summary, card: card)
                    screen = .detail
                    showMessage(.success, "Added “\(card.fields.name)”")
                    result += resolveOfflineEdit(of: form, keptMine: true)
                } else {
                    leaveForm()
                    showMessage(.success, "Saved “\(card.fields.name)”")
                    result += resolveOfflineEdit(of: form, keptMine: true)
                }
            case .leave(let discarding):
                if discarding {
                    modal = .confirm(
                        ConfirmState(form.offlineEntry == nil ? .discardChanges : .dropOfflineChange))
                } else {
                    leaveForm()
                    result += resolveOfflineEdit(of: form, keptMine: false)
                }
            case .message(let kind, let text):
                showMessage(kind, text, topic: .form)
            case .cancel(let call):
                result += cancelCalls(routed: .form(call))
            case .terminal(let bytes):
                result.append(.writeToTerminal(bytes))
            }
        }
        return result
    }

    mutating func reduceTransfer(_ action: TransferAction) -> [Effect] {
        guard var transfer else { return [] }
        let effects = transfer.reduce(action, viewport: transferViewport)
        self.transfer = transfer
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .call(let call, let tag):
                result.append(self.call(call, route: .transfer(tag)))
            case .cancel(let call):
                result += cancelCalls(routed: .transfer(call))
            case .close:
                self.transfer = nil
            case .reloadList:
                result += reduceList(.reload)
            case .message(let kind, let text):
                showMessage(kind, text)
            }
        }
        return result
    }

    /// Cancels the calls in flight that were routed to `route`.
    mutating func cancelCalls(routed route: CallRoute) -> [Effect] {
        pending.filter { $0.value.route == route }.keys.sorted().map { .cancel($0) }
    }

    mutating func reduceLogin(_ action: LoginAction) -> [Effect] {
        let effects = login.reduce(action)
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .submit(let server, let email, let password):
                result.append(call(.logIn(server: server, email: email, password: password), route: .login))
            case .submitBrowser(let server):
                result.append(call(.logInWithBrowser(server: server), route: .login))
            case .cancelBrowser:
                result += cancelCalls(routed: .login)
            case .loggedIn:
                if screen == .login { result += enterList() }
            case .quit:
                result += quit()
            }
        }
        return result
    }

    mutating func reduceReauth(_ action: LoginAction) -> [Effect] {
        guard var reauth else { return [] }
        let effects = reauth.login.reduce(action)
        self.reauth = reauth
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .submit(let server, let email, let password):
                result.append(call(.logIn(server: server, email: email, password: password), route: .reauth))
            case .submitBrowser(let server):
                result.append(call(.logInWithBrowser(server: server), route: .reauth))
            case .cancelBrowser:
                result += cancelCalls(routed: .reauth)
            case .loggedIn(let email, _):
                self.reauth = nil
                if let previous = reauth.previousEmail, previous.lowercased() != email.lowercased() {
                    showMessage(.info, "Logged in as \(email): showing that account's cards")
                    result += enterList()
                } else {
                    showMessage(.success, "Logged in again; carrying on")
                    result += reauth.replay.map { call($0.call, route: $0.route) }
                }
            case .quit:
                // Not now: the dialog goes, what was typed beneath it stays; the next call
                // that needs the server opens it again.
                self.reauth = nil
                for dropped in reauth.replay { abandon(dropped) }
                let note = UIFailure.note(reauth.serverCode)
                showMessage(
                    .warning,
                    form != nil
                        ? "Not logged in\(note): your text stays here; saving asks you to log in again"
                        : "Not logged in\(note): anything that needs the server asks you to log in again")
            }
        }
        return result
    }

    /// Forgets a call that will not be replayed: the screen that made it stops waiting.
    mutating func abandon(_ call: PendingCall) {
        switch call.route {
        case .form(.save): form?.isSaving = false
        case .list(.reorder): list.isReordering = false
        case .list(.page): list.pageDidFail()
        case .detail(.load): detail?.isLoading = false
        case .detail(.picture(let request)):
            if detail?.picture.request == request { detail?.picture = .failed(request, "Not logged in: r tries again") }
        case .transfer(.preview):
            transfer?.stage = .importPrompt
        case .transfer(.export):
            transfer?.stage = .exportPrompt
        default: break
        }
    }

    // MARK: Navigation

    /// Leaves the form for the card's details (when it came from there) or the list.
    mutating func leaveForm() {
        let toDetail = form?.returnsToDetail ?? false
        form = nil
        if toDetail, detail != nil {
            screen = .detail
        } else {
            detail = nil
            screen = .list
        }
    }

    /// Shows the list, empty, and loads its first page.
    mutating func enterList() -> [Effect] {
        screen = .list
        focus = .screen
        detail = nil
        form = nil
        modal = nil
        overlay = nil
        transfer = nil
        list = ListState(pageSize: list.pageSize)
        connection = .online
        return reduceList(.reload)
    }

    /// Back to the login screen, forgetting the cards.
    mutating func returnToLogin() {
        let server = session.server ?? login.server.text
        let email = session.email ?? login.email.text
        screen = .login
        focus = .screen
        detail = nil
        form = nil
        modal = nil
        overlay = nil
        reauth = nil
        transfer = nil
        list = ListState(pageSize: list.pageSize)
        connection = .online
        login = LoginState(server: server, email: email)
    }

    /// Opens the session-expired dialog over the current screen (once), keeping `failed` to
    /// replay after the login. The session's own news says it expired; this changes nothing
    /// else. The keyboard starts in the password when the email is known, and keys typed
    /// before the dialog shows are dropped (they were meant for the screen beneath).
    ///
    /// - Parameter serverCode: the code the server ended the session with (the card API's E06),
    ///   which the dialog then names; `nil` when it sent none (a CardDAV server) or is not known
    ///   yet (the session's own news comes first).
    mutating func openReauth(replaying failed: PendingCall?, serverCode: String? = nil) -> [Effect] {
        var effects: [Effect] = []
        if reauth == nil {
            let server = session.server ?? login.server.text
            let email = session.email ?? lastEmail ?? login.email.text
            var form = LoginState(server: server, email: email, editable: [.email, .password])
            if !email.isEmpty { form.focus = .password }
            reauth = ReauthState(login: form, replay: [], previousEmail: session.email ?? lastEmail)
            effects.append(.discardTypeahead)
        }
        if let failed { reauth?.replay.append(failed) }
        if let serverCode { reauth?.serverCode = serverCode }
        return effects
    }
}

extension AppState {
    /// The card the detail screen shows, after the background sync brought the whole list: gone
    /// from its server (deleted elsewhere) → back to the list, saying so; changed there → read
    /// again, so that the screen never shows a card that is no longer so.
    mutating func detailSynced(_ page: CardPage) -> [Effect] {
        guard screen == .detail, let detail, !detail.isLoading, let shown = detail.card else { return [] }
        guard let fresh = page.cards.first(where: { $0.id == detail.id }) else {
            // Only a whole list says a card is gone.
            guard page.cards.count >= page.total else { return [] }
            removeCard(detail.id)
            showMessage(.warning, "“\(shown.fields.name)” was deleted elsewhere: it is no longer on its server")
            return []
        }
        guard fresh.revision != shown.revision else { return [] }
        showMessage(.info, "“\(fresh.name)” changed elsewhere: shown as it is now")
        return reduceDetail(.command(.reload))
    }
}
