import CardModels

extension AppState {
    /// Registers `call` with the screen its result goes to and returns the effect that starts it.
    mutating func call(_ call: AppCall, route: CallRoute) -> Effect {
        let id = CallID(nextCallID)
        nextCallID += 1
        pending[id] = PendingCall(call: call, route: route)
        return .perform(id, call)
    }

    /// Hands a call's outcome to the screen that asked for it, with what crosses screens: an
    /// expired session (E06) opens the login dialog and keeps the call to replay; a card the
    /// server returned is news for every screen that shows it; a card the server says is gone
    /// leaves every screen (after the screen that asked has said so). Outcomes nobody waits for any more change nothing.
    mutating func complete(_ id: CallID, _ outcome: CallOutcome) -> [Effect] {
        guard let pending = pending.removeValue(forKey: id) else { return [] }
        let route = pending.route
        if case .failure(let failure) = outcome, failure.kind == .mustLogIn, route.replaysAfterLogin {
            return openReauth(replaying: pending, serverCode: failure.serverCode)
        }
        var outcome = outcome
        var effects: [Effect] = []
        if case .success(.withOfflineConflicts(let conflicts, let answer)) = outcome {
            noteOfflineConflicts(conflicts)
            outcome = .success(answer)
        }
        var behind: [BookBehind] = []
        if case .success(.withBooksBehind(let books, let answer)) = outcome {
            behind = books
            outcome = .success(answer)
        }
        if case .loadCards = pending.call, case .list(.page) = route { effects += connectionAnswered(outcome) }
        if case .success(.cachedCards(let page, _)) = outcome { outcome = .success(.cards(page)) }
        if case .success(.queued(let shown)) = outcome {
            offlineChanges.note(pending.call, shown)
            outcome = .success(shown)
        }
        if case .success(.card(let card)) = outcome { noteCard(card, isNew: pending.call.isCreate) }
        if case .success(.deleted(let id, let backup?)) = outcome {
            rememberDelete(backup, position: list.cards.walletIDs.firstIndex(of: id))
        }
        effects = self.route(outcome, to: route) + effects
        // Said after the list took its page (which clears the loading message).
        if !behind.isEmpty { showMessage(.warning, BookBehind.text(behind, utcOffsetSeconds: utcOffsetSeconds)) }
        // The screen said what it makes of a deleted card or "no such card"; every screen lets
        // the card go.
        switch outcome {
        case .success(.deleted(let id, _)): removeCard(id)
        case .failure(let failure) where failure.kind == .notFound:
            if let id = pending.call.cardID { removeCard(id) }
        default: break
        }
        return effects
    }

    /// The outcome, given to the screen that asked.
    private mutating func route(_ outcome: CallOutcome, to route: CallRoute) -> [Effect] {
        switch route {
        case .list(let tag):
            return reduceList(.finished(tag, outcome))
        case .detail(let tag):
            return reduceDetail(.finished(tag, outcome))
        case .form(let tag):
            return reduceForm(.finished(tag, outcome))
        case .transfer(let tag):
            return reduceTransfer(.finished(tag, outcome))
        case .overlay(let name, let tag):
            return overlayFinished(name, tag: tag, outcome)
        case .login:
            return reduceLogin(.finished(outcome))
        case .reauth:
            return reduceReauth(.finished(outcome))
        case .outbox:
            if case .failure(let failure) = outcome {
                showMessage(.warning, "The change made offline could not be forgotten: \(failure.message)")
            }
            return []
        case .book:
            switch outcome {
            case .success(.switchedBook(let book, let session)):
                self.session = session
                list.bookLabels = [:]
                showMessage(.info, "Address book “\(book)”")
                return reduceList(.reload)
            case .success(.showingAllBooks(let labels, let session)):
                self.session = session
                list.bookLabels = labels
                showMessage(.info, "All address books (\(labels.count)): B shows one")
                return reduceList(.reload)
            case .failure(let failure):
                showMessage(.warning, failure.message)
            default:
                break
            }
            return []
        case .account:
            return accountFinished(outcome)
        case .logOut:
            let previous = storedAccounts.first { $0.inUse }
            returnToLogin()
            // The form is for the account just logged out; the others are listed beneath it.
            if let previous { login = LoginState(server: previous.server, email: previous.user) }
            if case .failure(let failure) = outcome {
                showMessage(.warning, "Logged out here; the server was not told: \(failure.message)")
            } else {
                showMessage(.info, "Logged out")
            }
            return storedAccounts.isEmpty ? [] : [call(.listAccounts, route: .account)]
        }
    }

    /// How long after a delete `u` brings the cards back.
    static let undoWindow: Duration = .seconds(10)

    /// Keeps a deleted card for `u`: with the others of a delete of several cards, or alone.
    private mutating func rememberDelete(_ card: DeletedCard, position: Int?) {
        if var last = lastDelete, now - last.at <= .seconds(1) {
            last.cards.append((card, position))
            last.at = now
            lastDelete = last
        } else {
            lastDelete = UndoableDelete(cards: [(card, position)], at: now)
        }
    }

    /// Brings back the cards of the last delete, if it was recent enough.
    mutating func undoDelete() -> [Effect] {
        guard let last = lastDelete, now - last.at <= Self.undoWindow else {
            showMessage(
                .info, "Nothing to undo: a delete can be undone for \(Self.undoWindow.components.seconds) seconds")
            return []
        }
        lastDelete = nil
        let names = last.cards.map(\.card.card.fields.name)
        showMessage(.info, names.count == 1 ? "Bringing back “\(names[0])”…" : "Bringing back \(names.count) cards…")
        // Earlier positions first, so each lands where it was.
        return last.cards.sorted { ($0.position ?? .max) < ($1.position ?? .max) }.map { deleted in
            call(
                .restoreCard(deleted.card),
                route: .list(.restore(name: deleted.card.card.fields.name, position: deleted.position)))
        }
    }

    /// A card as the server now has it: the list and the detail screen show it.
    private mutating func noteCard(_ card: Card, isNew: Bool) {
        _ = reduceList(.cardSaved(card.summary, isNew: isNew))
        if detail?.id == card.id { _ = reduceDetail(.loaded(card)) }
    }

    /// Card `id` is gone: out of the list, and the detail screen closes if it shows it.
    mutating func removeCard(_ id: String) {
        _ = reduceList(.cardRemoved(id: id))
        if detail?.id == id {
            detail = nil
            if screen == .detail { screen = .list }
        }
    }
}

extension CallRoute {
    /// Whether an E06 answer keeps the call for after the login dialog (logins and logouts
    /// report it themselves).
    var replaysAfterLogin: Bool {
        switch self {
        case .login, .reauth, .logOut, .outbox, .book, .account: false
        case .list, .detail, .form, .transfer, .overlay: true
        }
    }
}

extension AppCall {
    /// Whether the call makes a new card.
    var isCreate: Bool {
        switch self {
        case .createCard, .restoreCard: true
        default: false
        }
    }
}

/// The status-bar text for a failure while doing `what`: short enough to read in one line; the
/// log pane keeps the server's whole answer.
enum FailureText {
    static func status(_ failure: UIFailure, doing what: String) -> String {
        switch failure.kind {
        case .rateLimited(let seconds):
            "\(what): too many requests\(failure.codeNote); try again \(seconds.map { "in \($0) s" } ?? "shortly")"
        case .cannotConnect(let url):
            "\(what): cannot connect to \(url) (\(failure.message))"
        case .server(let status?):
            "\(what): server error \(status); see the log (l)"
        default:
            "\(what): \(failure.message)"
        }
    }
}
