import CardModels

/// The export and import dialogs over the list: where to write or what to read, then (for an
/// import) what would change, the import card by card, and what it did.
public struct TransferState: Equatable, Sendable {
    /// Where the dialog is.
    public enum Stage: Equatable, Sendable {
        /// Asking where to export, and in which format.
        case exportPrompt
        /// Writing the file.
        case exporting
        /// Asking which file to import.
        case importPrompt
        /// Reading the file and planning against the wallet.
        case reading
        /// What the import would do; nothing is sent until Enter.
        case preview(ImportPreview)
        /// Importing, card by card; `stopping` once Esc asked it to stop.
        case importing(ImportPreview, progress: CallProgress?, stopping: Bool)
        /// What the import did.
        case report(ImportReport)
    }

    /// Where the dialog is.
    public var stage: Stage
    /// The file's path, as typed.
    public var path: TextFieldState
    /// The export's format.
    public var format: ExportFormat = .vcard3
    /// The cards an export writes.
    public var exportCards: ExportRequest.Cards
    /// Those cards for people: `“Ada Lovelace”`, `the 3 marked cards`, `all 12 cards`.
    public var exportLabel: String
    /// What is wrong with the path (shown under it), after a try.
    public var problem: String?
    /// Set when the file exists: the next Enter replaces it.
    public var replacing = false
    /// The first line of the preview or report shown.
    public var scroll = 0

    /// The export dialog for `cards`; the path starts as a file in the home folder named after
    /// the one card (`name`) or the wallet.
    public init(exporting cards: ExportRequest.Cards, label: String, name: String?) {
        stage = .exportPrompt
        exportCards = cards
        exportLabel = label
        path = TextFieldState("~/" + Self.fileName(for: name) + ".vcf")
    }

    /// The import dialog.
    public init(importingFrom path: String = "") {
        stage = .importPrompt
        exportCards = .all
        exportLabel = ""
        self.path = TextFieldState(path)
    }

    /// Whether the dialog takes text now (the path).
    public var isTakingText: Bool {
        switch stage {
        case .exportPrompt, .importPrompt: true
        default: false
        }
    }

    /// Whether a call of the dialog is on its way (the keys then only stop it).
    public var isWorking: Bool {
        switch stage {
        case .exporting, .reading, .importing: true
        default: false
        }
    }

    /// A file name from a card's name: its ASCII letters and digits, joined by dashes, or
    /// `cards` (one word per name part, at most 40 characters).
    static func fileName(for name: String?) -> String {
        guard let name else { return "cards" }
        let words = name.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let joined = words.joined(separator: "-")
        return joined.isEmpty ? "card" : String(joined.prefix(40))
    }

    /// `path` with its file extension changed to `format`'s, when it ends in one of ours.
    static func path(_ path: String, for format: ExportFormat) -> String {
        for known in ExportFormat.allCases where path.lowercased().hasSuffix("." + known.fileExtension) {
            return String(path.dropLast(known.fileExtension.count)) + format.fileExtension
        }
        return path
    }
}

/// The calls the dialogs make.
public enum TransferCall: Equatable, Sendable {
    case export, preview, run
}

/// What can happen to the dialogs.
public enum TransferAction: Equatable, Sendable {
    case command(TransferCommand)
    /// Editing the path; `typed` is the character for ``TextCommand/insert``.
    case text(TextCommand, typed: Character?)
    /// Text pasted into the path.
    case paste(String)
    /// A call the dialog made finished.
    case finished(TransferCall, CallOutcome)
    /// The import got further.
    case progress(CallProgress)
}

/// What the dialogs ask the app to do.
public enum TransferEffect: Equatable, Sendable {
    /// Make `call`; its outcome comes back as ``TransferAction/finished(_:_:)`` with `then`.
    case call(AppCall, then: TransferCall)
    /// Cancel the dialog's call in flight.
    case cancel(TransferCall)
    /// Close the dialog.
    case close
    /// Load the list again (cards were created or changed).
    case reloadList
    case message(StatusMessage.Kind, String)
}
