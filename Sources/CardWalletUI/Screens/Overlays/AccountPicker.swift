import CardModels

/// The accounts the wallet remembers, to switch between: `A` on the card list (F3 on the login
/// screen, whose fields take letters) opens it, j/k or the arrows choose, Enter switches, Esc
/// closes. An ``Overlay``: its state, keys, reducer and renderer are all here.
public struct AccountPicker: Overlay {
    /// The row chosen.
    public var selected: Int

    /// The picker, on `selected`.
    public init(selected: Int = 0) {
        self.selected = selected
    }

    /// Opens the picker on the account after the one in use (the one `A` would switch to), and
    /// reads the stored accounts again.
    public static let opener = OverlayOpener("accounts") { app in
        guard !app.storedAccounts.isEmpty else {
            return .refuse("No stored accounts yet: log in, and each login is remembered")
        }
        let current = app.storedAccounts.firstIndex { $0.inUse } ?? -1
        let next = app.storedAccounts.count > 1 ? (current + 1) % app.storedAccounts.count : 0
        return .open(AccountPicker(selected: max(0, next)), [.perform(.app(.refreshAccounts))])
    }

    /// Its keys.
    public static let keys = KeyTable(
        "Accounts",
        [
            KeyBinding(
                .down, .char("j"), command: .overlay(.scroll(.down)), "next account", hint: KeyHint("j/k", "move")),
            KeyBinding(.up, .char("k"), command: .overlay(.scroll(.up)), "previous account"),
            KeyBinding(.enter, command: .overlay(.accept), "use this account", hint: KeyHint("Enter", "use")),
            KeyBinding(.escape, .char("q"), command: .overlay(.cancel), "close", hint: KeyHint("Esc", "close")),
        ])

    public var keyTables: [KeyTable] { [Self.keys, KeyTables.interrupt] }
    public var unboundKeyMessage: String { "Key is not bound here: Enter uses the account, Esc closes" }

    public mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect] {
        let count = app.storedAccounts.count
        switch command {
        case .scroll(let direction):
            guard count > 0 else { return [] }
            switch direction {
            case .down, .pageDown, .halfPageDown: selected = min(count - 1, selected + 1)
            case .up, .pageUp, .halfPageUp: selected = max(0, selected - 1)
            case .top: selected = 0
            case .bottom: selected = count - 1
            }
            return []
        case .accept:
            guard app.storedAccounts.indices.contains(selected) else { return [.close] }
            let account = app.storedAccounts[selected]
            if account.inUse, case .loggedIn = app.session { return [.close, .message(.info, "Already in use")] }
            return [.close, .perform(.app(.switchAccount(account.name)))]
        case .cancel:
            return [.close]
        case .toggle, .text, .named:
            return []
        }
    }

    public func draw(_ grid: inout Grid, app: AppState, layout: Layout) {
        let accounts = app.storedAccounts
        let widest = accounts.map { DisplayWidth.of(TerminalText.escaped(Self.line($0))) }.max() ?? 0
        let inner = Renderer.drawBox(
            &grid, title: "Accounts", width: max(44, widest + 8), height: accounts.count + 4, layout: layout)
        let rows = max(0, inner.height - 2)
        let first = max(0, min(selected - rows + 1, accounts.count - rows))
        for (offset, account) in accounts.dropFirst(first).prefix(rows).enumerated() {
            let index = first + offset
            let text = (account.inUse ? "* " : "  ") + TerminalText.escaped(Self.line(account))
            grid.draw(
                text, x: inner.x, y: inner.y + 1 + offset, width: inner.width,
                style: index == selected ? Theme.selection : .plain)
        }
        grid.draw(
            "Enter uses it · Esc closes", x: inner.x, y: inner.y + inner.height - 1, width: inner.width,
            style: Theme.muted)
    }

    /// `alice@dav.example.com  CardDAV  · personal  (log in again)`.
    static func line(_ account: StoredAccount) -> String {
        var text = "\(account.name)  \(account.kind)"
        if let book = account.book { text += " · \(book)" }
        if !account.loggedIn { text += "  (log in again)" }
        return text
    }
}
