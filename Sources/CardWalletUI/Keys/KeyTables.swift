/// The key tables of every screen and mode. The reducers dispatch on exactly these (through
/// ``AppState/activeKeyTables``) and help prints exactly these.
public enum KeyTables {
    /// Moving through a list or a page: vi keys, arrows, pages and half pages.
    static func scrolling(_ wrap: (ScrollCommand) -> Command, _ noun: String, hint: Bool = false) -> [KeyBinding] {
        [
            KeyBinding(
                .char("j"), .down, command: wrap(.down), "next \(noun)", hint: hint ? KeyHint("j/k", "move") : nil),
            KeyBinding(.char("k"), .up, command: wrap(.up), "previous \(noun)"),
            KeyBinding(.char("g"), .home, command: wrap(.top), "first \(noun)"),
            KeyBinding(.char("G"), .end, command: wrap(.bottom), "last \(noun)"),
            KeyBinding(.pageDown, command: wrap(.pageDown), "one page down"),
            KeyBinding(.pageUp, command: wrap(.pageUp), "one page up"),
            KeyBinding(.ctrl("d"), command: wrap(.halfPageDown), "half a page down"),
            KeyBinding(.ctrl("u"), command: wrap(.halfPageUp), "half a page up"),
        ]
    }

    /// Everywhere the keyboard is not typing into a field.
    public static let global = KeyTable(
        "Everywhere",
        [
            KeyBinding(.char("?"), command: .global(.help), "show the keys of this screen", hint: KeyHint("?", "help")),
            KeyBinding(
                .char("l"), command: .global(.toggleLog), "show or hide the network log", hint: KeyHint("l", "log")),
            KeyBinding(.char("L"), command: .global(.cycleLogHeight), "make the log pane taller (cycles)"),
            KeyBinding(.char("f"), command: .log(.toggleFailures), "log pane: show only failures, or everything"),
            KeyBinding(.tab, command: .global(.switchFocus), "move between the screen and the log pane"),
            KeyBinding(.ctrl("l"), command: .global(.redraw), "redraw the screen"),
            KeyBinding(.ctrl("c"), command: .global(.quitNow), "quit at once"),
        ])

    /// Everywhere while typing into a field, where letters are text.
    public static let typingGlobal = KeyTable(
        "Everywhere (while typing)",
        [
            KeyBinding(
                .function(1), command: .global(.help), "show the keys of this screen", hint: KeyHint("F1", "help")),
            KeyBinding(.function(2), command: .global(.toggleLog), "show or hide the network log"),
            KeyBinding(.ctrl("l"), command: .global(.redraw), "redraw the screen"),
            KeyBinding(.ctrl("c"), command: .global(.quitNow), "quit at once"),
        ])

    /// Over a dialog or a page: only the way out of the program.
    public static let interrupt = KeyTable(
        "Always",
        [
            KeyBinding(.ctrl("l"), command: .global(.redraw), "redraw the screen"),
            KeyBinding(.ctrl("c"), command: .global(.quitNow), "quit at once"),
        ])

    /// The card list.
    public static let list = KeyTable(
        "Card list",
        scrolling({ .list(.move($0)) }, "card", hint: true) + [
            KeyBinding(
                .char("/"), command: .list(.startFilter), "filter the cards as you type", hint: KeyHint("/", "filter")),
            KeyBinding(.escape, command: .list(.clearFilter), "clear the filter"),
            KeyBinding(.char("n"), command: .list(.nextMatch), "next match of the filter"),
            KeyBinding(.char("N"), command: .list(.previousMatch), "previous match of the filter"),
            KeyBinding(
                .char("s"), command: .list(.cycleSort), "sort by wallet order, name, company, last update",
                hint: KeyHint("s", "sort")),
            KeyBinding(.char("J"), command: .list(.moveCardDown), "move the card down in the wallet"),
            KeyBinding(.char("K"), command: .list(.moveCardUp), "move the card up in the wallet"),
            KeyBinding(.enter, command: .list(.open), "open the card", hint: KeyHint("Enter", "open")),
            KeyBinding(.char("a"), command: .list(.add), "add a card", hint: KeyHint("a", "add")),
            KeyBinding(.char("e"), command: .list(.edit), "edit the card", hint: KeyHint("e", "edit")),
            KeyBinding(
                .char("d"), command: .list(.delete), "delete the card (or the marked cards)",
                hint: KeyHint("d", "delete")),
            KeyBinding(
                .char(" "), command: .list(.toggleMark), "mark or unmark the card (to delete several, to merge two)"),
            KeyBinding(.char("u"), command: .list(.undoDelete), "bring back the cards just deleted (for 10 seconds)"),
            KeyBinding(.char("x"), command: .list(.exportCards), "export the card (or the marked cards) to a file"),
            KeyBinding(.char("X"), command: .list(.exportAll), "export every card to a file"),
            KeyBinding(.char("i"), command: .list(.importCards), "import a vCard file (shows what would change first)"),
            KeyBinding(.char("m"), command: .open(BookPicker.moveOpener), "move the card to another address book"),
            KeyBinding(.char("c"), command: .open(BookPicker.copyOpener), "copy the card to another address book"),
            KeyBinding(.char("M"), command: .open(MergeScreen.opener), "merge the two marked cards, field by field"),
            KeyBinding(.char("r"), command: .list(.reload), "reload the list from the server"),
            KeyBinding(
                .char("B"), command: .app(.nextBook),
                "show every address book of every account, then each one in turn (cycles)"),
            KeyBinding(.char("A"), command: .open(AccountPicker.opener), "switch to another stored account"),
            KeyBinding(.char("O"), command: .list(.logOut), "log out"),
            KeyBinding(.char("q"), command: .list(.quit), "quit", hint: KeyHint("q", "quit")),
        ])

    /// Typing the list filter.
    public static let filter = KeyTable(
        "Filter",
        [
            KeyBinding(
                [.printable], .filter(.insert),
                "add to the filter (every field; name, company, title, email without a cache)"),
            KeyBinding(.backspace, command: .filter(.deleteBackward), "delete the last character"),
            KeyBinding(.ctrl("u"), command: .filter(.clear), "clear the filter text"),
            KeyBinding(
                .enter, command: .filter(.accept), "keep the filter and go back to the list",
                hint: KeyHint("Enter", "keep")),
            KeyBinding(.escape, command: .filter(.cancel), "clear the filter", hint: KeyHint("Esc", "clear")),
            KeyBinding(.down, .ctrl("n"), command: .filter(.move(.down)), "next card", hint: KeyHint("↑/↓", "move")),
            KeyBinding(.up, .ctrl("p"), command: .filter(.move(.up)), "previous card"),
        ])

    /// One card's details.
    public static let detail = KeyTable(
        "Card",
        scrolling({ .detail(.scroll($0)) }, "line") + [
            KeyBinding(.char("e"), command: .detail(.edit), "edit the card", hint: KeyHint("e", "edit")),
            KeyBinding(.char("d"), command: .detail(.delete), "delete the card", hint: KeyHint("d", "delete")),
            KeyBinding(.char("r"), command: .detail(.reload), "reload the card"),
            KeyBinding(
                .char("y"), command: .detail(.startCopy), "copy a field to the clipboard (asks which)",
                hint: KeyHint("y", "copy")),
            KeyBinding(.char("o"), command: .detail(.openWebsite), "open the card's website in the browser"),
            KeyBinding(.char("m"), command: .detail(.writeEmail), "write an email to the card's address"),
            KeyBinding(.char("Q"), command: .detail(.showQR), "show the card as a QR code", hint: KeyHint("Q", "QR")),
            KeyBinding(.char("x"), command: .detail(.export), "export the card to a file"),
            KeyBinding(.char("q"), .escape, command: .detail(.back), "back to the list", hint: KeyHint("q", "back")),
        ])

    /// After `y` on a card: which field to copy.
    public static let copy = KeyTable(
        "Copy",
        [
            KeyBinding(.char("n"), command: .detail(.copy(.name)), "the name", hint: KeyHint("n", "name")),
            KeyBinding(.char("e"), command: .detail(.copy(.email)), "the email address", hint: KeyHint("e", "email")),
            KeyBinding(.char("p"), command: .detail(.copy(.phone)), "the phone number", hint: KeyHint("p", "phone")),
            KeyBinding(.char("w"), command: .detail(.copy(.website)), "the website", hint: KeyHint("w", "website")),
            KeyBinding(
                .char("a"), command: .detail(.copy(.address)), "the postal address", hint: KeyHint("a", "address")),
            KeyBinding(
                .char("y"), .char("c"), command: .detail(.copy(.card)), "the whole card, as text",
                hint: KeyHint("y", "all")),
            KeyBinding(.escape, command: .detail(.cancelCopy), "copy nothing", hint: KeyHint("Esc", "cancel")),
        ])

    /// The QR code over a card: it shows until a key is pressed.
    public static let qr = KeyTable(
        "QR code",
        [
            KeyBinding([.anyKey], .detail(.closeQR), "close the QR code", hint: KeyHint("any key", "close"))
        ])

    /// The add/edit form.
    public static let form = KeyTable(
        "Form",
        [
            KeyBinding(.tab, .down, command: .form(.nextField), "next field", hint: KeyHint("Tab", "next")),
            KeyBinding(.backTab, .up, command: .form(.previousField), "previous field"),
            KeyBinding(.enter, .ctrl("s"), command: .form(.save), "save", hint: KeyHint("Enter", "save")),
            KeyBinding(
                .escape, command: .form(.cancel), "cancel (asks before discarding changes)",
                hint: KeyHint("Esc", "cancel")),
        ])

    /// The form of a new card, besides the form's own keys.
    public static let newCard = KeyTable(
        "New card",
        [
            KeyBinding(
                .ctrl("o"), command: .form(.startScan), "scan a photo of a paper card into the form",
                hint: KeyHint("^O", "scan"))
        ])

    /// The form's prompt for a photo to scan.
    public static let scanPrompt = KeyTable(
        "Scan a photo",
        [
            KeyBinding(
                .enter, command: .form(.scan), "read the photo and fill the form", hint: KeyHint("Enter", "scan")),
            KeyBinding(.escape, command: .form(.cancelScan), "close the prompt", hint: KeyHint("Esc", "cancel")),
        ])

    /// While a scan runs.
    public static let scanning = KeyTable(
        "Scanning",
        [
            KeyBinding(
                .escape, command: .form(.cancelScan), "stop the scan (the form stays as it was)",
                hint: KeyHint("Esc", "stop"))
        ])

    /// The export dialog.
    public static let exportPrompt = KeyTable(
        "Export",
        [
            KeyBinding(.enter, command: .transfer(.accept), "write the file", hint: KeyHint("Enter", "export")),
            KeyBinding(
                .tab, command: .transfer(.nextFormat), "next format: vCard 3.0, vCard 4.0, Google CSV, JSON",
                hint: KeyHint("Tab", "format")),
            KeyBinding(.escape, command: .transfer(.cancel), "cancel", hint: KeyHint("Esc", "cancel")),
        ])

    /// The import dialog's file prompt.
    public static let importPrompt = KeyTable(
        "Import",
        [
            KeyBinding(
                .enter, command: .transfer(.accept), "read the file and show what would change",
                hint: KeyHint("Enter", "read")),
            KeyBinding(.escape, command: .transfer(.cancel), "cancel", hint: KeyHint("Esc", "cancel")),
        ])

    /// What an import would do, before anything is sent.
    public static let importPreview = KeyTable(
        "Import preview",
        scrolling({ .transfer(.scroll($0)) }, "line") + [
            KeyBinding(
                .enter, .char("y"), command: .transfer(.accept), "import: create and update the cards listed",
                hint: KeyHint("Enter", "import")),
            KeyBinding(
                .escape, .char("n"), .char("q"), command: .transfer(.cancel), "cancel: nothing is sent",
                hint: KeyHint("Esc", "cancel")),
        ])

    /// While an export is written, a file is read or an import runs.
    public static let transferWorking = KeyTable(
        "Exporting or importing",
        [
            KeyBinding(
                .escape, command: .transfer(.cancel), "stop (an import stops after the card in progress)",
                hint: KeyHint("Esc", "stop"))
        ])

    /// What an import did.
    public static let importReport = KeyTable(
        "Import report",
        scrolling({ .transfer(.scroll($0)) }, "line") + [
            KeyBinding(
                .enter, .escape, .char("q"), command: .transfer(.accept), "close", hint: KeyHint("Enter", "close"))
        ])

    /// A field of several lines (Bio, Address) in the form: Enter starts a new line there.
    public static let multilineText = KeyTable(
        "Editing several lines",
        [
            KeyBinding(.enter, command: .text(.newLine), "start a new line", hint: KeyHint("Enter", "new line")),
            KeyBinding(.up, command: .text(.lineUp), "line up (from the first line: the field above)"),
            KeyBinding(.down, command: .text(.lineDown), "line down (from the last line: the field below)"),
            KeyBinding(.ctrl("s"), command: .form(.save), "save", hint: KeyHint("^S", "save")),
        ])

    /// The form after the server answered "changed since you read it" (E07).
    public static let conflict = KeyTable(
        "Conflict",
        [
            KeyBinding(
                .ctrl("t"), command: .form(.takeServerField), "take the server's value for this field",
                hint: KeyHint("^T", "take theirs")),
            KeyBinding(
                .ctrl("g"), command: .form(.takeServerAll), "take the server's version of every field",
                hint: KeyHint("^G", "take all")),
        ])

    /// Editing one line of text.
    public static let textField = KeyTable(
        "Editing text",
        [
            KeyBinding([.printable], .text(.insert), "type"),
            KeyBinding(.left, .ctrl("b"), command: .text(.moveLeft), "cursor left"),
            KeyBinding(.right, .ctrl("f"), command: .text(.moveRight), "cursor right"),
            KeyBinding(.home, .ctrl("a"), command: .text(.moveToStart), "start of the field"),
            KeyBinding(.end, .ctrl("e"), command: .text(.moveToEnd), "end of the field"),
            KeyBinding(.backspace, command: .text(.deleteBackward), "delete before the cursor"),
            KeyBinding(.delete, .ctrl("d"), command: .text(.deleteForward), "delete under the cursor"),
            KeyBinding(.ctrl("u"), command: .text(.deleteToStart), "delete to the start"),
            KeyBinding(.ctrl("k"), command: .text(.deleteToEnd), "delete to the end"),
            KeyBinding(.ctrl("w"), command: .text(.deleteWordBackward), "delete the word before the cursor"),
        ])

    /// The login form.
    public static let login = KeyTable(
        "Log in",
        [
            KeyBinding(.tab, .down, command: .login(.nextField), "next field", hint: KeyHint("Tab", "next")),
            KeyBinding(.backTab, .up, command: .login(.previousField), "previous field"),
            KeyBinding(.enter, command: .login(.submit), "log in", hint: KeyHint("Enter", "log in")),
            KeyBinding(
                .ctrl("o"), command: .login(.browser),
                "log in with OAuth 2.0 in the browser: Server “google”, or a CardDAV server whose issuer is oauth.issuer",
                hint: KeyHint("^O", "browser")),
            KeyBinding(
                .function(3), command: .open(AccountPicker.opener), "switch to another stored account",
                hint: KeyHint("F3", "accounts")),
            KeyBinding(.escape, command: .login(.quit), "quit", hint: KeyHint("Esc", "quit")),
        ])

    /// The session-expired dialog over the current screen.
    public static let reauth = KeyTable(
        "Session expired",
        [
            KeyBinding(.tab, .down, command: .login(.nextField), "next field", hint: KeyHint("Tab", "next")),
            KeyBinding(.backTab, .up, command: .login(.previousField), "previous field"),
            KeyBinding(.enter, command: .login(.submit), "log in again and carry on", hint: KeyHint("Enter", "log in")),
            KeyBinding(
                .ctrl("o"), command: .login(.browser), "log in again with OAuth 2.0 in the browser",
                hint: KeyHint("^O", "browser")),
            KeyBinding(
                .escape, command: .login(.quit), "not now: close the dialog, keeping what you typed",
                hint: KeyHint("Esc", "not now")),
        ])

    /// A yes/no question.
    public static let confirm = KeyTable(
        "Question",
        [
            KeyBinding(.char("y"), .char("Y"), command: .confirm(.yes), "yes", hint: KeyHint("y", "yes")),
            KeyBinding(.char("n"), .char("N"), .escape, command: .confirm(.no), "no", hint: KeyHint("n/Esc", "no")),
            KeyBinding(.left, .right, .tab, .backTab, command: .confirm(.toggle), "switch between the answers"),
            KeyBinding(.enter, command: .confirm(.choose), "the highlighted answer (No unless you moved)"),
        ])

    /// The help page.
    public static let pager = page(close: .pager(.close)) { .pager(.scroll($0)) }

    /// A page of text over the screen (help, a log line's detail): scrolling, and the keys that
    /// close it.
    static func page(close: Command, _ scroll: (ScrollCommand) -> Command) -> KeyTable {
        KeyTable(
            "Page",
            scrolling(scroll, "line") + [
                KeyBinding(
                    .escape, .char("q"), .char("?"), .enter, .function(1), command: close, "close",
                    hint: KeyHint("Esc", "close"))
            ])
    }

    /// The log pane with the keyboard.
    public static let log = KeyTable(
        "Log pane",
        scrolling({ .log(.move($0)) }, "line", hint: true) + [
            KeyBinding(
                .enter, command: .open(LogDetailPage.opener), "show the line's detail", hint: KeyHint("Enter", "detail")
            ),
            KeyBinding(
                .char("f"), command: .log(.toggleFailures), "show only failures, or everything",
                hint: KeyHint("f", "failures")),
            KeyBinding(.escape, command: .log(.leave), "back to the screen", hint: KeyHint("Esc", "back")),
        ])
}
