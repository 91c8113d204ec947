import CardModels

extension AppState {
    /// Applies `action` and returns the effects to run, in order. Pure: reads no clock, does
    /// no I/O; time arrives as ``AppAction/tick(now:)`` and outcomes as
    /// ``AppAction/completed(_:_:)``.
    public mutating func reduce(_ action: AppAction) -> [Effect] {
        let pictureBefore = shownPicture
        let formPictureBefore = shownFormPicture
        var effects = apply(action)
        effects += openOfflineConflictIfIdle()
        // Whatever changed the layout (a resize on another screen, the log pane, the filter
        // prompt), the selected card stays on screen, and the card's picture fits its space.
        list.settle(viewport: listViewport)
        effects += settleDetail()
        effects += settleForm()
        effects += Self.releases(before: pictureBefore, after: shownPicture)
        effects += Self.releases(before: formPictureBefore, after: shownFormPicture)
        // A message about a screen that is no longer shown is no longer true.
        switch message?.topic {
        case .listScreen? where screen != .list: message = nil
        case .form? where form == nil: message = nil
        default: break
        }
        return effects
    }

    private mutating func apply(_ action: AppAction) -> [Effect] {
        switch action {
        case .key(let key):
            guard let command = command(for: key) else {
                if !layout.isTooSmall { showMessage(.info, unboundKeyMessage) }
                return []
            }
            // Too small, nothing of the app shows: a key would act unseen (d then y deleting a
            // card nobody can see). Only Ctrl-C, which the notice names, still works.
            if layout.isTooSmall, command != .global(.quitNow), command != .global(.redraw) { return [] }
            return perform(command, key: key)
        case .paste(let text):
            return paste(text)
        case .mouse(let event):
            return mouse(event)
        case .resize(let width, let height):
            self.width = max(0, width)
            self.height = max(0, height)
            return settleAfterResize()
        case .tick(let now):
            self.now = now
            if let message, message.expires <= now { self.message = nil }
            return retryIfDue()
        case .completed(let id, let result):
            return complete(id, result)
        case .progress(let id, let progress):
            switch pending[id]?.route {
            case .transfer?: return reduceTransfer(.progress(progress))
            case .login?: return progress.link.map { reduceLogin(.browserAddress($0)) } ?? []
            case .reauth?: return progress.link.map { reduceReauth(.browserAddress($0)) } ?? []
            default: return []
            }
        case .session(let status):
            return sessionChanged(status)
        case .cachedWallet(let page, let asOf):
            return showCachedWallet(page, asOf: asOf)
        case .showingBooks(let labels):
            list.bookLabels = labels
            return []
        case .synced(let page):
            // Only over a list that is there and still: a reload, a page on its way or an offline
            // list answer themselves.
            guard screen != .login, list.hasLoaded, !list.isReloading, !list.isLoadingPage, !connection.isOffline
            else { return [] }
            list.syncArrived(page, viewport: listViewport)
            return detailSynced(page)
        case .log(let line):
            log.buffer.append(line)
            return []
        case .notice(let kind, let text):
            showMessage(kind, text)
            return []
        }
    }

    /// Does what a key's command means on the current screen.
    mutating func perform(_ command: Command, key: Key) -> [Effect] {
        perform(command, typed: { if case .char(let character) = key { character } else { nil } }())
    }

    /// Does what `command` means, `typed` being the character its key types (if any).
    mutating func perform(_ command: Command, typed: Character?) -> [Effect] {
        switch command {
        case .global(let global):
            return perform(global)
        case .app(let command):
            return perform(command)
        case .open(let opener):
            return open(opener)
        case .overlay(let command):
            return reduceOverlay(command, typed: typed)
        case .list(let list):
            return reduceList(.command(list))
        case .filter(let filter):
            return reduceList(.filter(filter, typed: typed))
        case .detail(let detail):
            return reduceDetail(.command(detail))
        case .form(let form):
            return reduceForm(.command(form))
        case .text(let text):
            if reauth != nil { return reduceReauth(.text(text, typed: typed)) }
            if transfer != nil { return reduceTransfer(.text(text, typed: typed)) }
            if screen == .login { return reduceLogin(.text(text, typed: typed)) }
            return reduceForm(.text(text, typed: typed))
        case .login(let login):
            return reauth != nil ? reduceReauth(.command(login)) : reduceLogin(.command(login))
        case .confirm(let confirm):
            return answer(confirm)
        case .pager(let pager):
            return page(pager)
        case .log(let log):
            return perform(log)
        case .transfer(let transfer):
            return reduceTransfer(.command(transfer))
        }
    }

    private mutating func perform(_ command: AppCommand) -> [Effect] {
        switch command {
        case .nextBook:
            showMessage(.info, "Switching to the next address book…")
            return [call(.nextBook, route: .book)]
        case .switchAccount(let name):
            showMessage(.info, "Switching to \(name)…")
            return [call(.switchAccount(name: name), route: .account)]
        case .refreshAccounts:
            return [call(.listAccounts, route: .account)]
        }
    }

    private mutating func perform(_ command: GlobalCommand) -> [Effect] {
        switch command {
        case .help:
            modal = .help(scroll: 0)
        case .toggleLog:
            log.isVisible.toggle()
            if !log.isVisible { leaveLogPane() }
        case .cycleLogHeight:
            if log.isVisible {
                log.height = log.height.next
            } else {
                log.isVisible = true
            }
        case .switchFocus:
            guard log.isVisible else {
                showMessage(.info, "The log pane is hidden: press l to show it")
                return []
            }
            if focus == .log {
                leaveLogPane()
            } else {
                focus = .log
            }
        case .quitNow:
            // Typed and not saved: ask first (No by default); Ctrl-C over the question quits.
            if hasUnsavedEdits, !isAskingToQuit {
                modal = .confirm(ConfirmState(.quitDiscarding))
                return []
            }
            return quit()
        case .redraw:
            return [.redraw]
        }
        return settleAfterResize()
    }

    private mutating func perform(_ command: LogCommand) -> [Effect] {
        switch command {
        case .move(let scroll):
            log.move(scroll, viewport: layout.logViewport)
        case .toggleFailures:
            if !log.isVisible {
                log.isVisible = true
                log.failuresOnly = false
            }
            log.failuresOnly.toggle()
            if let selected = log.selectedLine, log.failuresOnly, !selected.isFailure { log.selectedID = nil }
        case .leave:
            leaveLogPane()
        }
        return settleAfterResize()
    }

    /// Gives the keyboard back to the screen; the pane follows the newest line again.
    private mutating func leaveLogPane() {
        focus = .screen
        log.selectedID = nil
    }

    private mutating func answer(_ command: ConfirmCommand) -> [Effect] {
        guard case .confirm(var question) = modal else { return [] }
        guard let yes = question.reduce(command) else {
            modal = .confirm(question)
            return []
        }
        modal = nil
        guard yes else { return [] }
        switch question.purpose {
        case .deleteCard(let card):
            return [call(.deleteCard(id: card.id), route: .list(.delete(card)))]
        case .deleteCards(let cards):
            list.marked = []
            return cards.map { call(.deleteCard(id: $0.id), route: .list(.delete($0))) }
        case .discardChanges, .dropOfflineChange:
            let closing = form
            leaveForm()
            return resolveOfflineEdit(of: closing, keptMine: false)
        case .quitDiscarding:
            return quit()
        }
    }

    /// Whether the "quit and lose your changes?" question is showing.
    var isAskingToQuit: Bool {
        if case .confirm(let question) = modal, question.purpose == .quitDiscarding { return true }
        return false
    }

    /// Whether the form holds text the user typed and has not saved (also under the
    /// session-expired dialog): quitting at once would lose it.
    var hasUnsavedEdits: Bool {
        guard let form else { return false }
        return form.isDirty && !form.isSaving
    }

    mutating func page(_ command: PagerCommand) -> [Effect] {
        switch (modal, command) {
        case (_, .close):
            modal = nil
        case (.help(let scroll), .scroll(let direction)):
            modal = .help(
                scroll: Pager.scroll(scroll, direction, viewport: layout.pageViewport, lineCount: helpLines.count))
        case (.confirm, .scroll), (nil, .scroll):
            break
        }
        return []
    }

    /// Re-clamps scroll positions to the new size (and loads ahead if the list grew taller).
    mutating func settleAfterResize() -> [Effect] {
        guard screen == .list else { return [] }
        let viewport = listViewport
        list.settle(viewport: viewport)
        guard let load = list.loadAheadIfNeeded(viewport: viewport) else { return [] }
        return mapList([load])
    }

    /// Stops the app. Changes still on their way to the server are waited for (see
    /// ``AppRunner/finishSending(timeout:)``), and the status bar says so.
    mutating func quit() -> [Effect] {
        isQuitting = true
        if pendingChanges > 0 {
            showMessage(.warning, "Quitting once your change reaches the server… (Ctrl-C quits now)")
        }
        return [.quit]
    }

    /// What a key that means nothing here is told.
    var unboundKeyMessage: String {
        switch modal {
        case .confirm: return "Key is not bound here: answer y (yes) or n (no)"
        case .help: return "Key is not bound here: Esc closes this page"
        case nil: break
        }
        if let overlay, overlay.overlay.coversScreen || reauth == nil { return overlay.overlay.unboundKeyMessage }
        return activeKeyTables.contains { $0.title == KeyTables.typingGlobal.title }
            ? "Key is not bound. Press F1 for help." : "Key is not bound. Press ? for help."
    }

    /// Shows `text` in the status bar until it expires.
    mutating func showMessage(_ kind: StatusMessage.Kind, _ text: String, topic: StatusMessage.Topic? = nil) {
        message = StatusMessage(kind, text, expires: now + StatusMessage.lifetime(of: kind), topic: topic)
    }

    /// The detail lines of log line `id`, as the log detail page shows them.
    func logDetailLines(id: UInt64) -> [String] {
        guard let index = log.buffer.index(ofID: id) else { return ["This line is no longer kept."] }
        let line = log.buffer[index]
        let summary = LogFormat.summary(line, utcOffsetSeconds: utcOffsetSeconds, includingText: false)
        return [summary] + (line.text.isEmpty ? [] : [line.text]) + line.detail
    }
}
