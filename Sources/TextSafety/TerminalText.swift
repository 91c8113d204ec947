/// Makes untrusted text (card fields, server messages, log lines, error codes, log metadata)
/// harmless on a terminal: the one function every layer uses — the TUI, the scripting commands,
/// the logger plugin, the log file and the mock server — so they all escape alike.
///
/// Everything that could make a terminal do something instead of showing text is replaced by
/// a visible escape: C0 controls and DEL in caret notation (`ESC` → `^[`, `DEL` → `^?`), C1
/// controls, bidirectional overrides and isolates, and other invisible format characters as
/// `\u{202E}`. A card named `"\u{1B}[2J"` shows as `^[[2J`; an OSC 52 clipboard write or a
/// right-to-left override shows as text and changes nothing. Zero-width joiners and tag
/// characters stay inside emoji sequences, where they are part of one visible picture; a mark
/// that has nothing to combine with is escaped so it cannot attach to the cell before it.
public enum TerminalText {
    /// `text` with everything unsafe replaced by a visible escape; `text` itself when it is
    /// already safe (the common, allocation-free case).
    public static func escaped(_ text: String) -> String {
        if isPrintableASCII(text) { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for character in text {
            append(character, to: &output)
        }
        return output
    }

    /// Whether every byte of `text` is printable ASCII (space to `~`), which needs no escaping.
    public static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The visible form of one scalar that must not reach the terminal: `^[` for ESC, `^?` for
    /// DEL, `\u{85}` for a C1 control, `\u{202E}` for a bidi override.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x20 {
            return "^" + String(Character(Unicode.Scalar(UInt8(value) + 0x40)))
        }
        if value == 0x7F { return "^?" }
        return "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }

    /// Whether `scalar` may be shown as it is. `isFirst` says whether it starts its grapheme;
    /// `inEmoji` whether that grapheme starts with an emoji (where ZWJ and tags are legitimate).
    static func isSafe(_ scalar: Unicode.Scalar, isFirst: Bool, inEmoji: Bool) -> Bool {
        let value = scalar.value
        switch value {
        case 0x00..<0x20, 0x7F...0x9F: return false
        case 0x20..<0x7F: return true
        // Bidirectional marks, embeddings, overrides and isolates; line and paragraph separators.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return false
        // Zero-width non-joiner and joiner: legitimate inside a cluster (Indic scripts, emoji).
        case 0x200C, 0x200D: return !isFirst
        // Tag characters spell subdivision flags after a black flag emoji.
        case 0xE0020...0xE007F: return !isFirst && inEmoji
        default: break
        }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .control: return false
        case .nonspacingMark, .enclosingMark, .spacingMark: return !isFirst
        default:
            // Hangul medial vowels and final consonants take no column of their own.
            let isJamoTail = (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
            return !(isFirst && isJamoTail)
        }
    }

    /// Appends `character` to `output`, escaping the scalars that are not safe.
    static func append(_ character: Character, to output: inout String) {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return }
        let inEmoji = first.properties.isEmoji && first.value > 0x7F
        var isFirst = true
        var allSafe = true
        for scalar in scalars {
            if !isSafe(scalar, isFirst: isFirst, inEmoji: inEmoji) {
                allSafe = false
                break
            }
            isFirst = false
        }
        if allSafe {
            output.append(character)
            return
        }
        // Escape scalar by scalar: a safe mark after an escape attaches to the escape's last
        // character at worst, which is harmless, and nothing unsafe gets through.
        isFirst = true
        for scalar in scalars {
            if isSafe(scalar, isFirst: isFirst, inEmoji: inEmoji) {
                output.unicodeScalars.append(scalar)
            } else {
                output += escape(scalar)
            }
            isFirst = false
        }
    }
}
