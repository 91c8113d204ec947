import CardModels

/// Two cards merged into one, field by field (issue 40): `M` on the card list with two cards
/// marked (Space) opens it over the screen. Each row is a field (the descriptors' label) with
/// both cards' values; the one the merged card takes is marked, the fuller by default; ←/→ (h/l)
/// choose the row's side, j/k move between rows, Tab chooses which card is kept (its book keeps
/// the merged card; the other is deleted), Enter merges, Esc leaves. Both emails and phone
/// numbers are kept, and every property either card has that the wallet does not model. An
/// ``Overlay``: its state, keys, reducer and renderer are all here.
public struct MergeScreen: Overlay {
    /// The ids of the two cards, as the list knows them.
    public var ids: (left: String, right: String)
    /// The merge, once both cards are read.
    public var plan: CardMergePlan?
    /// The books' labels.
    public var books: (left: String, right: String) = ("", "")
    /// The row chosen.
    public var row = 0
    /// Whether the merge is on its way.
    public var working = false

    /// The screen for cards `left` and `right`.
    public init(left: String, right: String) {
        self.ids = (left, right)
    }

    public static func == (a: MergeScreen, b: MergeScreen) -> Bool {
        a.ids == b.ids && a.plan == b.plan && a.books == b.books && a.row == b.row && a.working == b.working
    }

    /// `M`: the two marked cards (or the one marked and the selected one).
    public static let opener = OverlayOpener("merge") { app in
        let list = app.list
        var ids = list.cards.walletIDs.filter { list.marked.contains($0) }
        if ids.count == 1, let selected = list.selectedCard?.id, selected != ids[0] { ids.append(selected) }
        guard app.screen == .list, ids.count == 2 else {
            return .refuse("Mark two cards with Space, then press M to merge them")
        }
        return .open(
            MergeScreen(left: ids[0], right: ids[1]), [.call(.loadMerge(left: ids[0], right: ids[1]), tag: "load")])
    }

    /// Its keys.
    public static let keys = KeyTable(
        "Merge",
        [
            KeyBinding(
                .down, .char("j"), command: .overlay(.scroll(.down)), "next field", hint: KeyHint("j/k", "field")),
            KeyBinding(.up, .char("k"), command: .overlay(.scroll(.up)), "previous field"),
            KeyBinding(
                .left, .char("h"), command: .overlay(.named("left")), "take the left card's value",
                hint: KeyHint("←/→", "choose")),
            KeyBinding(.right, .char("l"), command: .overlay(.named("right")), "take the right card's value"),
            KeyBinding(
                .tab, command: .overlay(.toggle), "keep the other card (its book keeps the merged card)",
                hint: KeyHint("Tab", "keep")),
            KeyBinding(.enter, command: .overlay(.accept), "merge", hint: KeyHint("Enter", "merge")),
            KeyBinding(
                .escape, .char("q"), command: .overlay(.cancel), "leave without merging", hint: KeyHint("Esc", "cancel")
            ),
        ])

    public var keyTables: [KeyTable] { [Self.keys, KeyTables.interrupt] }
    public var coversScreen: Bool { true }
    public var unboundKeyMessage: String { "Key is not bound here: ←/→ choose, Enter merges, Esc leaves" }

    public mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect] {
        guard !working else {
            return command == .cancel ? [.message(.info, "The merge is on its way: this closes when it is done")] : []
        }
        guard var plan else { return command == .cancel ? [.close] : [] }
        let rows = plan.rows
        switch command {
        case .scroll(let direction):
            guard !rows.isEmpty else { return [] }
            switch direction {
            case .down, .pageDown, .halfPageDown: row = min(rows.count - 1, row + 1)
            case .up, .pageUp, .halfPageUp: row = max(0, row - 1)
            case .top: row = 0
            case .bottom: row = rows.count - 1
            }
        case .named(let side):
            guard rows.indices.contains(row) else { return [] }
            plan.choices[rows[row]] = side == "left" ? .left : .right
        case .toggle:
            plan.keep = plan.keep.other
        case .accept:
            working = true
            return [.call(.mergeCards(plan), tag: "merge")]
        case .cancel:
            return [.close]
        case .text:
            break
        }
        self.plan = plan
        return []
    }

    public mutating func finished(tag: String, _ outcome: CallOutcome, app: AppState) -> [OverlayEffect] {
        switch (tag, outcome) {
        case ("load", .success(.mergeCandidates(let left, let right, let leftBook, let rightBook))):
            plan = CardMergePlan(left: left, right: right)
            books = (leftBook, rightBook)
            return []
        case ("merge", .success(.transferred(let text))):
            return [.close, .message(.info, text), .perform(.list(.clearMarks)), .perform(.list(.reload))]
        case (_, .failure(let failure)):
            working = false
            return tag == "load"
                ? [.close, .message(.warning, failure.message)] : [.message(.warning, failure.message)]
        default:
            return []
        }
    }

    public func draw(_ grid: inout Grid, app: AppState, layout: Layout) {
        let top = layout.content.lowerBound
        grid.fill(x: 0, y: top, width: grid.width, height: layout.content.count)
        grid.draw("Merge two cards", x: 1, y: top, style: Theme.columnTitle)
        guard let plan else {
            grid.draw("Reading both cards…", x: 1, y: top + 2, style: Theme.muted)
            return
        }
        let labelWidth = 12
        let valueWidth = max(8, (grid.width - labelWidth - 6) / 2)
        let leftX = 1 + labelWidth
        let rightX = leftX + valueWidth + 3
        func heading(_ side: CardMergePlan.Side, _ book: String) -> String {
            (plan.keep == side ? "kept · " : "deleted · ") + book
        }
        grid.draw(heading(.left, books.left), x: leftX + 2, y: top + 1, width: valueWidth, style: Theme.label)
        grid.draw(heading(.right, books.right), x: rightX + 2, y: top + 1, width: valueWidth, style: Theme.label)
        let rows = plan.rows
        let notes = self.notes(plan)
        let room = max(1, layout.content.count - 3 - notes.count)
        let first = max(0, min(row - room + 1, rows.count - room))
        for (offset, field) in rows.dropFirst(first).prefix(room).enumerated() {
            let y = top + 2 + offset
            let index = first + offset
            let side = plan.choices[field] ?? .left
            let same = plan.left.fields[value: field] == plan.right.fields[value: field]
            if index == row { grid.fill(x: 0, y: y, width: grid.width, height: 1, style: Theme.selection) }
            let base = index == row ? Theme.selection : Style()
            grid.draw(field.label, x: 1, y: y, width: labelWidth - 1, style: index == row ? base : Theme.label)
            for (current, x, card) in [(CardMergePlan.Side.left, leftX, plan.left), (.right, rightX, plan.right)] {
                let taken = same ? current == .left : side == current
                grid.draw(taken ? "▸" : " ", x: x, y: y, style: index == row ? base : Theme.key)
                grid.draw(
                    card.fields[field], x: x + 2, y: y, width: valueWidth,
                    style: index == row ? base : (taken ? Style() : Theme.muted))
            }
        }
        for (offset, note) in notes.enumerated() {
            grid.draw(
                note, x: 1, y: top + 3 + min(room, rows.count) + offset, width: grid.width - 2, style: Theme.muted)
        }
    }

    /// What the merge keeps besides the fields chosen.
    func notes(_ plan: CardMergePlan) -> [String] {
        var notes: [String] = []
        if let email = plan.otherEmail { notes.append("Kept as a second email: \(email)") }
        if let phone = plan.otherPhone { notes.append("Kept as a second phone number: \(phone)") }
        notes.append("Every property either card has that the wallet does not model is kept.")
        return notes
    }
}
