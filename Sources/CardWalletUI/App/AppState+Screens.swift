import CardModels

extension AppState {
    // MARK: Screens' reducers, and what their effects mean for the app

    mutating func reduceList(_ action: ListAction) -> [Effect] {
        let effects = list.reduce(action, viewport: listViewport)
        return mapList(effects)
    }

    mutating func mapList(_ effects: [ListEffect]) -> [Effect] {
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .loadPage(let offset, let limit):
                result.append(request(.loadCards(offset: offset, limit: limit, query: nil), .loadPage(generation: list.generation)))
            case .open(let card):
                detail = DetailState(summary: card)
                screen = .detail
                result.append(request(.loadCard(id: card.id), .openCard(id: card.id)))
            case .edit(let card):
                showMessage(.info, "Loading “\(card.name)” to edit…")
                result.append(request(.loadCard(id: card.id), .editCard(id: card.id)))
            case .add:
                form = FormState()
                screen = .form
            case .delete(let card):
                modal = .confirm(ConfirmState(.deleteCard(card)))
            case .reorder(let order):
                if pending.values.contains(where: { $0.purpose == .reorder }) {
                    queuedReorder = order
                } else {
                    result.append(request(.reorderCards(order: order), .reorder))
                }
            case .logOut:
                result.append(request(.logOut, .logOut))
            case .quit:
                result += quit()
            case .message(let kind, let text):
                showMessage(kind, text)
            }
        }
        return result
    }

    mutating func reduceDetail(_ action: DetailAction) -> [Effect] {
        guard var detail else { return [] }
        let lines = DetailLines.make(detail, width: width).count
        let effects = detail.reduce(action, viewport: layout.content.count, lineCount: lines)
        self.detail = detail
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .edit(let card):
                form = FormState(editing: card, returnsToDetail: true)
                screen = .form
            case .delete(let card):
                modal = .confirm(ConfirmState(.deleteCard(card)))
            case .reload(let id):
                result.append(request(.loadCard(id: id), .openCard(id: id)))
            case .back:
                self.detail = nil
                screen = .list
            case .message(let kind, let text):
                showMessage(kind, text)
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
            case .create(let fields, let imagePath):
                // What the last attempt said is stale now; "saving…" shows instead.
                message = nil
                result.append(request(.createCard(fields, imagePath: imagePath), .save))
            case .update(let id, let fields, let version):
                message = nil
                result.append(request(.updateCard(id: id, fields: fields, version: version), .save))
            case .leave(let discarding):
                if discarding {
                    modal = .confirm(ConfirmState(.discardChanges))
                } else {
                    leaveForm()
                }
            case .fetchServerVersion(let id):
                result.append(request(.loadCard(id: id), .fetchConflict(id: id)))
            case .message(let kind, let text):
                showMessage(kind, text)
            }
        }
        return result
    }

    mutating func reduceLogin(_ action: LoginAction) -> [Effect] {
        let effects = login.reduce(action)
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .submit(let server, let email, let password):
                result.append(request(.logIn(server: server, email: email, password: password), .logIn))
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
            if case .submit(let server, let email, let password) = effect {
                result.append(request(.logIn(server: server, email: email, password: password), .reauth))
            }
        }
        return result
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
        list = ListState(pageSize: list.pageSize)
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
        reauth = nil
        list = ListState(pageSize: list.pageSize)
        login = LoginState(server: server, email: email)
    }

    /// Opens the session-expired dialog over the current screen (once), keeping `failed` to
    /// replay after the login.
    mutating func openReauth(replaying failed: PendingRequest?) {
        if reauth == nil {
            let server = session.server ?? login.server.text
            let email = session.email ?? login.email.text
            reauth = ReauthState(
                login: LoginState(server: server, email: email, editable: [.email, .password]),
                replay: [], previousEmail: session.email)
            session = .expired(email: email.isEmpty ? nil : email, server: server)
        }
        if let failed { reauth?.replay.append(failed) }
    }
}
