public import CardModels

/// A yes/no question over the current screen. The default answer is No: Enter without
/// moving, Esc and `n` all say No.
public struct ConfirmState: Equatable, Sendable {
    /// What the question is about.
    public enum Purpose: Equatable, Sendable {
        case deleteCard(CardSummary)
        /// Several marked cards at once.
        case deleteCards([CardSummary])
        case discardChanges
        /// Leaving the conflict view of an edit made offline: the server's version stays.
        case dropOfflineChange
        /// Ctrl-C with changes typed and not saved: a second Ctrl-C quits too.
        case quitDiscarding
    }

    /// What is asked.
    public var purpose: Purpose
    /// Whether Enter would say Yes.
    public var isYesHighlighted = false

    /// A question about `purpose`, with No highlighted.
    public init(_ purpose: Purpose) {
        self.purpose = purpose
    }

    /// The question, for people.
    public var question: String {
        switch purpose {
        case .deleteCard(let card): "Delete the card “\(card.name)”?"
        case .deleteCards(let cards): "Delete the \(cards.count) marked cards?"
        case .discardChanges: "Discard your changes?"
        case .dropOfflineChange: "Keep the server's version and drop the change you made offline?"
        case .quitDiscarding: "Quit and lose the changes you have not saved? (Ctrl-C again quits)"
        }
    }

    /// Applies a key's command; returns the answer once there is one.
    public mutating func reduce(_ command: ConfirmCommand) -> Bool? {
        switch command {
        case .yes: return true
        case .no: return false
        case .toggle:
            isYesHighlighted.toggle()
            return nil
        case .choose: return isYesHighlighted
        }
    }
}
