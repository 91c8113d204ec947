/// The styles the renderer uses. Every distinction that matters survives `NO_COLOR`: the
/// selection and the cursor are reverse video, errors are bold, input areas are underlined;
/// colour roles only add to that, and a backend may drop them.
public enum Theme {
    public static let titleBar = Style([.reverse, .bold], color: .accent)
    public static let columnTitle = Style([.bold, .underline])
    public static let selection = Style([.reverse])
    /// The selection of a list whose pane does not have the keyboard.
    public static let inactiveSelection = Style([.underline, .bold])
    public static let label = Style([.bold])
    public static let muted = Style([.dim], color: .muted)
    public static let input = Style([.underline])
    public static let cursor = Style([.reverse, .underline])
    public static let error = Style([.bold], color: .error)
    public static let warning = Style([.bold], color: .warning)
    public static let success = Style([], color: .success)
    public static let paneTitle = Style([.reverse], color: .muted)
    public static let key = Style([.bold], color: .accent)
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
