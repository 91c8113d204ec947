import CNCurses
import CardWalletUI

/// What one `wget_wch` call read.
enum RawKey: Hashable, Sendable {
    /// `wget_wch` returned `OK`: a character, as a wide-character value.
    case character(UInt32)
    /// `wget_wch` returned `KEY_CODE_YES`: a curses key code such as `KEY_UP`.
    case code(Int32)
}

/// What a raw key means to the main loop.
enum KeyInput: Hashable, Sendable {
    case key(Key)
    /// `KEY_RESIZE`: ncurses has already resized its screen; the backend asks it for the size.
    case resize
}

/// Maps what curses reads to ``Key``: a pure function, tested without a terminal.
enum KeyMapping {
    /// The meaning of `raw`, or `nil` for keys the UI has no use for (Insert, Ctrl-\, mouse…).
    static func input(for raw: RawKey) -> KeyInput? {
        switch raw {
        case .character(let value):
            return key(forCharacter: value).map(KeyInput.key)
        case .code(let code):
            if code == cn_key_resize() { return .resize }
            return key(forCode: code).map(KeyInput.key)
        }
    }

    /// A character `wget_wch` returned as text: printable characters, and the control codes
    /// terminals send for Enter, Tab, Backspace, Escape and Ctrl-letters.
    static func key(forCharacter value: UInt32) -> Key? {
        switch value {
        case 0x0D, 0x0A: return .enter  // Ctrl-M / Ctrl-J: \r (with nonl) and \n
        case 0x09: return .tab  // Ctrl-I
        case 0x08, 0x7F: return .backspace  // Ctrl-H, DEL: what terminals send for Backspace
        case 0x1B: return .escape  // a lone ESC, after the escape delay
        case 0x01...0x1A:
            guard let letter = Unicode.Scalar(value + 0x60) else { return nil }
            return .ctrl(Character(letter))
        case 0x00...0x1F, 0x80...0x9F:
            return nil  // Ctrl-@, Ctrl-\, Ctrl-], Ctrl-^, Ctrl-_ and C1 controls
        default:
            guard let scalar = Unicode.Scalar(value), isTypable(scalar) else { return nil }
            return .char(Character(scalar))
        }
    }

    /// A curses key code (`KEY_*`), after keypad translation.
    static func key(forCode code: Int32) -> Key? {
        keyCodes[code]
    }

    /// Format characters (bidi overrides and isolates) and separators never become text typed
    /// into a field: they could reorder what the user sees. The zero-width joiner and
    /// non-joiner are kept: they join emoji (👩‍👩‍👧) and shape Persian and Indic text.
    static func isTypable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value == 0x200C || scalar.value == 0x200D { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }

    /// What one character read inside a bracketed paste adds to the pasted text: itself, a
    /// line break for CR or LF, a tab, or nothing (other controls, format characters).
    static func pasted(_ value: UInt32) -> String {
        switch value {
        case 0x0D, 0x0A: return "\n"
        case 0x09: return "\t"
        case 0x00...0x1F, 0x7F...0x9F: return ""
        default:
            guard let scalar = Unicode.Scalar(value), isTypable(scalar) else { return "" }
            return String(Character(scalar))
        }
    }

    private static let keyCodes: [Int32: Key] = {
        var table: [Int32: Key] = [
            cn_key_up(): .up, cn_key_down(): .down, cn_key_left(): .left, cn_key_right(): .right,
            cn_key_home(): .home, cn_key_end(): .end,
            cn_key_ppage(): .pageUp, cn_key_npage(): .pageDown,
            cn_key_btab(): .backTab, cn_key_backspace(): .backspace,
            cn_key_dc(): .delete, cn_key_enter(): .enter,
            // The keypad's corners and VT220 Find/Select, as terminals send them for Home/End.
            cn_key_a1(): .home, cn_key_c1(): .end, cn_key_a3(): .pageUp, cn_key_c3(): .pageDown,
            cn_key_beg(): .home, cn_key_find(): .home, cn_key_select(): .end,
            // Shifted movement keys move like the plain ones: nothing in the UI selects text.
            cn_key_sleft(): .left, cn_key_sright(): .right, cn_key_sr(): .up, cn_key_sf(): .down,
            cn_key_shome(): .home, cn_key_send(): .end, cn_key_sdc(): .delete,
        ]
        for number in 1...12 {
            table[cn_key_f(Int32(number))] = .function(number)
        }
        return table
    }()
}
