extension AppState {
    /// Opens the overlay `opener` makes over the screen, or says why it does not open.
    mutating func open(_ opener: OverlayOpener) -> [Effect] {
        switch opener.open(self) {
        case .refuse(let text):
            showMessage(.info, text)
            return []
        case .open(let overlay, let effects):
            self.overlay = OpenOverlay(opener, overlay)
            return apply(effects, fromOverlay: opener.name)
        }
    }

    /// Hands one of the overlay's commands to it.
    mutating func reduceOverlay(_ command: OverlayCommand, typed: Character?) -> [Effect] {
        guard var open = overlay else { return [] }
        let app = self
        let effects = open.overlay.reduce(command, typed: typed, app: app)
        overlay = open
        return apply(effects, fromOverlay: open.name)
    }

    /// Hands the outcome of a call the overlay `name` asked for to it, if it still shows.
    mutating func overlayFinished(_ name: String, tag: String, _ outcome: CallOutcome) -> [Effect] {
        guard var open = overlay, open.name == name else { return [] }
        let app = self
        let effects = open.overlay.finished(tag: tag, outcome, app: app)
        overlay = open
        return apply(effects, fromOverlay: name)
    }

    /// Does what the overlay `name` asked for, in order.
    private mutating func apply(_ effects: [OverlayEffect], fromOverlay name: String) -> [Effect] {
        var result: [Effect] = []
        for effect in effects {
            switch effect {
            case .close:
                if overlay?.name == name { overlay = nil }
            case .message(let kind, let text):
                showMessage(kind, text)
            case .call(let call, let tag):
                result.append(self.call(call, route: .overlay(name: name, tag: tag)))
            case .perform(let command):
                result += perform(command, typed: nil)
            case .effect(let effect):
                result.append(effect)
            }
        }
        return result
    }

    /// Whether the overlay showing covers the screen, as a page does.
    var overlayCoversScreen: Bool { overlay?.overlay.coversScreen ?? false }
}
