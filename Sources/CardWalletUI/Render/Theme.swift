/// The styles the renderer uses. Every distinction that matters survives `NO_COLOR`: the
/// selection and the cursor are reverse video, errors are bold, input areas are underlined;
/// colour roles only add to that, and a backend may drop them.
public enum Theme {
    /// The top line.
    public static let titleBar = Style([.reverse, .bold], color: .accent)
    /// Column titles and page titles.
    public static let columnTitle = Style([.bold, .underline])
    /// The selected row: reverse video, visible without colour.
    public static let selection = Style([.reverse])
    /// The selection of a list whose pane does not have the keyboard.
    public static let inactiveSelection = Style([.underline, .bold])
    /// Field labels.
    public static let label = Style([.bold])
    /// Secondary text: hints, counts, loading notes.
    public static let muted = Style([.dim], color: .muted)
    /// An input area.
    public static let input = Style([.underline])
    /// The text cursor.
    public static let cursor = Style([.reverse, .underline])
    /// Errors: bold, so they stand out without colour.
    public static let error = Style([.bold], color: .error)
    /// Warnings and the server's side of a conflict.
    public static let warning = Style([.bold], color: .warning)
    /// Good news.
    public static let success = Style([], color: .success)
    /// The log pane's title bar.
    public static let paneTitle = Style([.reverse], color: .muted)
    /// Key names in hints and help.
    public static let key = Style([.bold], color: .accent)
    /// Dialog borders and separators.
    public static let border = Style([], color: .muted)

    /// The style of a status message of `kind`.
    public static func message(_ kind: StatusMessage.Kind) -> Style {
        switch kind {
        case .info: Style()
        case .success: success
        case .warning: warning
        case .error: error
        }
    }
}
