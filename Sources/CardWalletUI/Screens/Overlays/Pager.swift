/// Scrolling a page of `lineCount` lines in a `viewport`.
enum Pager {
    /// The new first line after `command`.
    static func scroll(_ scroll: Int, _ command: ScrollCommand, viewport: Int, lineCount: Int) -> Int {
        let page = max(1, viewport)
        var next = scroll
        switch command {
        case .up: next -= 1
        case .down: next += 1
        case .top: next = 0
        case .bottom: next = lineCount
        case .pageUp: next -= page
        case .pageDown: next += page
        case .halfPageUp: next -= max(1, page / 2)
        case .halfPageDown: next += max(1, page / 2)
        }
        return min(max(0, next), max(0, lineCount - viewport))
    }
}
