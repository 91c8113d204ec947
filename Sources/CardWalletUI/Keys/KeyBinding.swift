/// Which keys a binding answers to.
public enum KeyPattern: Hashable, Sendable {
    /// Exactly this key.
    case key(Key)
    /// Any printable character (typing into a field).
    case printable
    /// Any key at all (closing a picture that shows until a key is pressed).
    case anyKey
}

/// A short "key what" pair for the status bar, e.g. `j/k move`.
public struct KeyHint: Hashable, Sendable {
    /// How the keys are written in the hint, e.g. `j/k`.
    public var keys: String
    /// What they do, in a word or two.
    public var text: String

    /// A hint showing `keys` then `text`.
    public init(_ keys: String, _ text: String) {
        self.keys = keys
        self.text = text
    }
}

/// Keys, the command they mean, and how help and the status bar describe them.
public struct KeyBinding: Hashable, Sendable {
    /// The keys (the first is the one hints mention).
    public var keys: [KeyPattern]
    /// What the keys mean.
    public var command: Command
    /// The help line.
    public var summary: String
    /// Shown in the status bar's key hints when set.
    public var hint: KeyHint?

    /// Binds `keys` to `command`.
    public init(_ keys: [KeyPattern], _ command: Command, _ summary: String, hint: KeyHint? = nil) {
        self.keys = keys
        self.command = command
        self.summary = summary
        self.hint = hint
    }

    /// Binds plain keys to `command`.
    public init(_ keys: Key..., command: Command, _ summary: String, hint: KeyHint? = nil) {
        self.init(keys.map(KeyPattern.key), command, summary, hint: hint)
    }

    /// How help writes the keys, e.g. `j ↓`.
    public var keyNames: String {
        keys.map { pattern in
            switch pattern {
            case .key(let key): key.displayName
            case .printable: "any character"
            case .anyKey: "any key"
            }
        }.joined(separator: " ")
    }
}

/// The keys of one screen or mode, in the order help lists them.
///
/// Reducers find commands with ``command(for:)`` and help lists ``bindings``: both read the
/// same table.
public struct KeyTable: Hashable, Sendable {
    /// The heading in help, e.g. "Card list".
    public let title: String
    /// The bindings, in the order help lists them.
    public let bindings: [KeyBinding]
    private let byKey: [Key: Command]
    private let printable: Command?
    private let anyKey: Command?

    /// A table of `bindings`; when two bindings name the same key, the first one wins.
    public init(_ title: String, _ bindings: [KeyBinding]) {
        self.title = title
        self.bindings = bindings
        var byKey: [Key: Command] = [:]
        var printable: Command?
        var anyKey: Command?
        for binding in bindings {
            for pattern in binding.keys {
                switch pattern {
                case .key(let key): if byKey[key] == nil { byKey[key] = binding.command }
                case .printable: if printable == nil { printable = binding.command }
                case .anyKey: if anyKey == nil { anyKey = binding.command }
                }
            }
        }
        self.byKey = byKey
        self.printable = printable
        self.anyKey = anyKey
    }

    /// The command `key` means in this table, or `nil`.
    public func command(for key: Key) -> Command? {
        if let command = byKey[key] { return command }
        if case .char = key, let printable { return printable }
        return anyKey
    }
}

extension [KeyTable] {
    /// The command of the first table that knows `key`: how every reducer dispatches.
    public func command(for key: Key) -> Command? {
        for table in self {
            if let command = table.command(for: key) { return command }
        }
        return nil
    }
}
