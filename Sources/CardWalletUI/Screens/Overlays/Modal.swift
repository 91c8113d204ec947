/// What covers the current screen.
public enum Modal: Equatable, Sendable {
    /// A yes/no question.
    case confirm(ConfirmState)
    /// The keys of the screen beneath, scrolled to `scroll`.
    case help(scroll: Int)
}
