/// One line of editable text with a cursor, as in a readline prompt.
public struct TextFieldState: Equatable, Sendable {
    /// The text as typed.
    public var text: String
    /// The cursor, in characters from the start (0...text.count).
    public var cursor: Int

    /// A field holding `text` with the cursor at its end.
    public init(_ text: String = "") {
        self.text = text
        self.cursor = text.count
    }

    /// Inserts `string` at the cursor and puts the cursor after it. A joiner (ZWJ, ZWNJ) or a
    /// combining mark that merges with the character before it makes one character of the two:
    /// the cursor stays after what was typed, in characters as they show.
    ///
    /// - Returns: Whether the text changed.
    @discardableResult
    public mutating func insert(_ string: String) -> Bool {
        guard !string.isEmpty else { return false }
        cursor = min(max(0, cursor), text.count)
        let index = text.index(text.startIndex, offsetBy: cursor)
        let scalars = text.unicodeScalars
        let after = scalars.distance(from: scalars.startIndex, to: index) + string.unicodeScalars.count
        text.insert(contentsOf: string, at: index)
        let end = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: after)
        cursor = text.unicodeScalars[..<end].isEmpty ? 0 : String(text.unicodeScalars[..<end]).count
        return true
    }

    /// Applies an editing command; `typed` is the character for ``TextCommand/insert``.
    ///
    /// - Returns: Whether the text changed (cursor moves alone return `false`).
    @discardableResult
    public mutating func apply(_ command: TextCommand, typed: Character? = nil) -> Bool {
        cursor = min(max(0, cursor), text.count)
        let index = text.index(text.startIndex, offsetBy: cursor)
        switch command {
        case .insert:
            guard let typed else { return false }
            return insert(String(typed))
        case .moveLeft:
            cursor = max(0, cursor - 1)
        case .moveRight:
            cursor = min(text.count, cursor + 1)
        case .moveToStart:
            cursor = 0
        case .moveToEnd:
            cursor = text.count
        case .deleteBackward:
            guard cursor > 0 else { return false }
            text.remove(at: text.index(before: index))
            cursor -= 1
            return true
        case .deleteForward:
            guard index < text.endIndex else { return false }
            text.remove(at: index)
            return true
        case .deleteToStart:
            guard cursor > 0 else { return false }
            text.removeSubrange(text.startIndex..<index)
            cursor = 0
            return true
        case .deleteToEnd:
            guard index < text.endIndex else { return false }
            text.removeSubrange(index...)
            return true
        case .newLine:
            return insert("\n")
        case .lineUp:
            _ = moveLine(by: -1)
        case .lineDown:
            _ = moveLine(by: 1)
        case .deleteWordBackward:
            guard cursor > 0 else { return false }
            var start = index
            while start > text.startIndex, text[text.index(before: start)] == " " { start = text.index(before: start) }
            while start > text.startIndex, text[text.index(before: start)] != " " { start = text.index(before: start) }
            cursor -= text.distance(from: start, to: index)
            text.removeSubrange(start..<index)
            return true
        }
        return false
    }

    // MARK: Several lines

    /// The text's lines (split at `\n`; an empty text has one empty line).
    public var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The cursor's line and its column in that line, in characters.
    public var cursorPosition: (line: Int, column: Int) {
        var remaining = min(max(0, cursor), text.count)
        for (index, line) in lines.enumerated() {
            if remaining <= line.count { return (index, remaining) }
            remaining -= line.count + 1
        }
        return (max(0, lines.count - 1), lines.last?.count ?? 0)
    }

    /// Moves the cursor `delta` lines up (negative) or down, keeping its column where the line
    /// is long enough; `false` (and nothing moves) past the first or last line.
    public mutating func moveLine(by delta: Int) -> Bool {
        let lines = lines
        let position = cursorPosition
        let target = position.line + delta
        guard target >= 0, target < lines.count else { return false }
        var offset = 0
        for index in 0..<target { offset += lines[index].count + 1 }
        cursor = offset + min(position.column, lines[target].count)
        return true
    }
}
