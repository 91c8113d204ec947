import CardModels

/// The detail of one log line, as a page over the screen: Enter on a line of the log pane
/// opens it (``KeyTables/log``), j/k and the paging keys scroll it, Esc closes it. An
/// ``Overlay``: its state, keys, reducer and renderer are all here.
public struct LogDetailPage: Overlay {
    /// The line shown.
    public var lineID: UInt64
    /// The first line of the page shown.
    public var scroll = 0

    /// The page of log line `lineID`, at its top.
    public init(lineID: UInt64, scroll: Int = 0) {
        self.lineID = lineID
        self.scroll = scroll
    }

    /// Opens the page of the log pane's selected line.
    public static let opener = OverlayOpener("log line") { app in
        guard let line = app.log.selectedLine else { return .refuse("No log lines yet") }
        return .open(LogDetailPage(lineID: line.id))
    }

    /// Its keys: a page's.
    public static let keys = KeyTables.page(close: .overlay(.cancel)) { .overlay(.scroll($0)) }

    public var keyTables: [KeyTable] { [Self.keys, KeyTables.interrupt] }
    public var coversScreen: Bool { true }
    public var unboundKeyMessage: String { "Key is not bound here: Esc closes this page" }

    public mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect] {
        switch command {
        case .scroll(let direction):
            scroll = Pager.scroll(
                scroll, direction, viewport: app.layout.pageViewport, lineCount: app.logDetailLines(id: lineID).count)
            return []
        case .cancel:
            return [.close]
        case .accept, .toggle, .text, .named:
            return []
        }
    }

    public func draw(_ grid: inout Grid, app: AppState, layout: Layout) {
        let top = layout.content.lowerBound
        grid.fill(x: 0, y: top, width: grid.width, height: layout.content.count)
        grid.draw("Log line (Esc closes)", x: 1, y: top, style: Theme.columnTitle)
        let lines = app.logDetailLines(id: lineID).flatMap {
            TextLayout.wrap(TerminalText.escaped($0), width: grid.width - 2)
        }
        let viewport = layout.pageViewport
        let scroll = min(scroll, max(0, lines.count - viewport))
        for (offset, line) in lines.dropFirst(scroll).prefix(viewport).enumerated() {
            grid.draw(line, x: 1, y: top + 1 + offset)
        }
    }
}
