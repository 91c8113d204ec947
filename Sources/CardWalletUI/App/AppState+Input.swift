extension AppState {
    /// Pasted text goes into the text field that has the keyboard, as text: a line break is a
    /// line break in a field that holds several lines (Bio, Address) and a space elsewhere,
    /// never Enter. Where no field takes text, nothing happens but a word on what would.
    mutating func paste(_ text: String) -> [Effect] {
        guard !layout.isTooSmall, !text.isEmpty else { return [] }
        if modal != nil || overlayCoversScreen || (overlay != nil && reauth == nil) {
            showMessage(.info, "Close this first (Esc): a paste goes into a text field")
            return []
        }
        if let reauth {
            var login = reauth.login
            _ = login.reduce(.paste(Self.oneLine(text)))
            self.reauth?.login = login
            return []
        }
        if let transfer {
            guard transfer.isTakingText else { return [] }
            return reduceTransfer(.paste(text))
        }
        if focus == .log {
            showMessage(.info, "The log pane takes no text: Esc goes back to the screen")
            return []
        }
        switch screen {
        case .login:
            return reduceLogin(.paste(Self.oneLine(text)))
        case .form:
            return reduceForm(.paste(text))
        case .list where list.isEditingFilter:
            return reduceList(.pasteFilter(Self.oneLine(text)))
        case .list, .detail:
            showMessage(.info, "Nothing here takes text: / filters the cards, a adds a card, e edits one")
            return []
        }
    }

    /// `text` on one line: line breaks and tabs become spaces.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }

    /// A press selects what is under it (pressing the selected card opens it; a press in the
    /// log pane gives it the keyboard); the wheel scrolls what is under it.
    mutating func mouse(_ event: MouseEvent) -> [Effect] {
        let layout = layout
        guard !layout.isTooSmall else { return [] }
        let scroll: ScrollCommand? =
            switch event.kind {
            case .wheelUp: .up
            case .wheelDown: .down
            case .press: nil
            }
        switch modal {
        case .help:
            if let scroll { for _ in 0..<Self.wheelStep { _ = page(.scroll(scroll)) } }
            return []
        case .confirm:
            return []
        case nil:
            break
        }
        if overlay != nil, overlayCoversScreen || reauth == nil {
            // An overlay scrolls with the wheel, as with its keys.
            var effects: [Effect] = []
            if let scroll { for _ in 0..<Self.wheelStep { effects += reduceOverlay(.scroll(scroll), typed: nil) } }
            return effects
        }
        guard reauth == nil, transfer == nil, detail?.qr == nil || screen != .detail else { return [] }
        if let pane = layout.logPane, pane.contains(event.y) {
            if let scroll {
                focus = .log
                for _ in 0..<Self.wheelStep { log.move(scroll, viewport: layout.logViewport) }
            } else {
                focus = .log
            }
            return []
        }
        guard layout.content.contains(event.y) else { return [] }
        if focus == .log { focus = .screen }
        switch screen {
        case .list:
            if let scroll {
                var effects: [Effect] = []
                for _ in 0..<Self.wheelStep { effects += reduceList(.command(.move(scroll))) }
                return effects
            }
            let row = event.y - layout.content.lowerBound - 1
            let target = list.scrollTop + row
            guard row >= 0, row < listViewport, target < list.cards.rows.count else { return [] }
            if target == list.selection { return reduceList(.command(.open)) }
            list.selection = target
            return settleAfterResize()
        case .detail:
            guard let scroll else { return [] }
            var effects: [Effect] = []
            for _ in 0..<Self.wheelStep { effects += reduceDetail(.command(.scroll(scroll))) }
            return effects
        case .login, .form:
            return []
        }
    }

    /// Lines one wheel notch scrolls.
    static let wheelStep = 3
}
