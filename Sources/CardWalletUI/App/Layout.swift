/// Where everything goes on a screen of a given size: worked out from the state alone, so the
/// reducer (paging, scrolling) and the renderer always agree.
public struct Layout: Equatable, Sendable {
    /// Below this many columns the app shows a "terminal too small" notice.
    public static let minimumWidth = 60
    /// Below this many rows the app shows a "terminal too small" notice.
    public static let minimumHeight = 15

    /// Terminal columns.
    public let width: Int
    /// Terminal rows.
    public let height: Int
    /// Whether the terminal is too small for the layout.
    public let isTooSmall: Bool
    /// The screen's rows (between the header and the log pane or status bar).
    public let content: Range<Int>
    /// The log pane's rows, its title bar first, when it shows.
    public let logPane: Range<Int>?
    /// The status bar's row (session, spinner, message).
    public let statusRow: Int
    /// The key hints' row.
    public let hintsRow: Int

    /// The layout of `state`'s screen.
    public init(_ state: AppState) {
        self.init(width: state.width, height: state.height, log: state.log.isVisible ? state.log.height : nil)
    }

    /// The layout of a `width`×`height` screen with the log pane at `log` height (or hidden).
    public init(width: Int, height: Int, log: LogPaneState.Height?) {
        self.width = max(0, width)
        self.height = max(0, height)
        isTooSmall = width < Self.minimumWidth || height < Self.minimumHeight
        statusRow = max(0, height - 2)
        hintsRow = max(0, height - 1)
        let available = max(0, height - 3)
        let logRows = log.map { min($0.rows(of: available), available - 5) } ?? 0
        if logRows > 0 {
            content = 1..<(1 + available - logRows)
            logPane = content.upperBound..<statusRow
        } else {
            content = 1..<(1 + available)
            logPane = nil
        }
    }

    /// The card rows of the list (below its column titles, above the filter prompt).
    public func listViewport(showsFilter: Bool) -> Int {
        max(1, content.count - 1 - (showsFilter ? 1 : 0))
    }

    /// The lines of a page (help, a log line's detail) under its title.
    public var pageViewport: Int { max(1, content.count - 1) }

    /// The lines the log pane shows under its title bar.
    public var logViewport: Int { max(1, (logPane?.count ?? 1) - 1) }
}

extension AppState {
    /// The layout of the current screen.
    public var layout: Layout { Layout(self) }

    /// How many card rows the list shows.
    var listViewport: Int {
        layout.listViewport(showsFilter: list.isEditingFilter || !list.cards.query.isEmpty)
    }
}
