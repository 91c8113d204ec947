/// A dialog or page over the screen, opened by a key: its own state, key tables, reducer and
/// renderer, in its own file. The app knows an overlay only through this protocol: a key opens it
/// with one row in a key table (`KeyBinding(.char("x"), command: .open(SomeOverlay.opener), …)`);
/// while it shows, its key tables take the keys (under a question and the session-expired
/// dialog) and its commands (``Command/overlay(_:)``) go to ``reduce(_:typed:app:)``; it draws
/// itself over the screen; the calls it asks for come back to ``finished(tag:_:app:)``.
///
/// docs/Architecture.md, *How to add a key*, lists the files a new one takes.
public protocol Overlay: Equatable, Sendable {
    /// The key tables in force while it shows, first match wins; help lists them.
    var keyTables: [KeyTable] { get }
    /// Whether it covers the whole screen, as a page does (the dialogs of the screen beneath are
    /// not drawn then). No by default.
    var coversScreen: Bool { get }
    /// What a key it does not bind is told.
    var unboundKeyMessage: String { get }
    /// Applies one of its commands; `app` is the state beneath it, to read.
    mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect]
    /// Takes the outcome of a call it asked for with ``OverlayEffect/call(_:tag:)``. Nothing by
    /// default.
    mutating func finished(tag: String, _ outcome: CallOutcome, app: AppState) -> [OverlayEffect]
    /// Draws it over the screen (`layout` says where the screen's rows are).
    func draw(_ grid: inout Grid, app: AppState, layout: Layout)
}

extension Overlay {
    public var coversScreen: Bool { false }
    public var unboundKeyMessage: String { "Key is not bound here: Esc closes this" }
    public mutating func finished(tag: String, _ outcome: CallOutcome, app: AppState) -> [OverlayEffect] { [] }

    /// Whether `other` is this very overlay, in the same state.
    func isEqual(to other: any Overlay) -> Bool { (other as? Self) == self }
}

/// What an overlay's commands can say, whatever the overlay: its key tables bind keys to these.
public enum OverlayCommand: Hashable, Sendable {
    /// Move the selection or scroll.
    case scroll(ScrollCommand)
    /// Enter: choose, confirm.
    case accept
    /// Esc: close.
    case cancel
    /// Space or Tab: mark, switch.
    case toggle
    /// Typing into the overlay's own text field.
    case text(TextCommand)
    /// Anything else of the overlay's own, by name (its key table and its reducer agree on it).
    case named(String)
}

/// What the app does for an overlay after one of its commands.
public enum OverlayEffect: Equatable, Sendable {
    /// Close the overlay.
    case close
    /// Show a message in the status bar.
    case message(StatusMessage.Kind, String)
    /// Perform `call`; its outcome comes back to ``Overlay/finished(tag:_:app:)`` with `tag`
    /// (and to nobody when the overlay has closed meanwhile).
    case call(AppCall, tag: String)
    /// Do what `command` means on what is beneath, as if its key had been pressed there (after a
    /// ``close``, the screen's; before it, the overlay's own).
    case perform(Command)
    /// One of the runner's effects (copy to the clipboard, open a link…).
    case effect(Effect)
}

/// How a key opens an overlay: the row of its key table names one. Equal when their names are.
public struct OverlayOpener: Hashable, Sendable, CustomStringConvertible {
    /// What opening gives.
    public enum Opening: Sendable {
        /// This overlay, and what to do as it opens (ask for what it lists, say something).
        case open(any Overlay, [OverlayEffect] = [])
        /// Nothing opens; the status bar says why.
        case refuse(String)
    }

    /// The overlay's name, unique among overlays (and the route of its calls).
    public let name: String
    private let make: @Sendable (AppState) -> Opening

    /// An opener named `name` (the overlay's own name, e.g. `"log line"`) making the overlay
    /// from the app's state.
    public init(_ name: String, _ make: @escaping @Sendable (AppState) -> Opening) {
        self.name = name
        self.make = make
    }

    /// What opening it over `app` gives.
    func open(_ app: AppState) -> Opening { make(app) }

    public static func == (lhs: OverlayOpener, rhs: OverlayOpener) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}

/// The overlay that shows, with the name of the opener that opened it.
public struct OpenOverlay: Equatable, Sendable {
    /// Its opener's name: where its calls' outcomes go.
    public let name: String
    /// The overlay.
    public var overlay: any Overlay

    /// `overlay`, opened by `opener`.
    public init(_ opener: OverlayOpener, _ overlay: any Overlay) {
        self.name = opener.name
        self.overlay = overlay
    }

    /// The overlay as `type`, when it is one.
    public func `as`<T: Overlay>(_ type: T.Type) -> T? { overlay as? T }

    public static func == (lhs: OpenOverlay, rhs: OpenOverlay) -> Bool {
        lhs.name == rhs.name && lhs.overlay.isEqual(to: rhs.overlay)
    }
}
