import CNCurses

/// Escape sequences taught to ncurses on top of the terminfo entry.
///
/// A terminfo entry describes the keypad in one mode only (xterm's says `ESC O A` for Up), yet
/// terminals, multiplexers and `TERM` values that do not quite match send the other mode's
/// sequences too. Binding both keeps arrows, Home/End and F1–F4 working everywhere; a sequence
/// the entry already binds is left alone.
enum EscapeSequences {
    static let bindings: [(sequence: String, code: Int32)] = {
        var list: [(String, Int32)] = [
            ("\u{1B}[A", cn_key_up()), ("\u{1B}[B", cn_key_down()),
            ("\u{1B}[C", cn_key_right()), ("\u{1B}[D", cn_key_left()),
            ("\u{1B}OA", cn_key_up()), ("\u{1B}OB", cn_key_down()),
            ("\u{1B}OC", cn_key_right()), ("\u{1B}OD", cn_key_left()),
            ("\u{1B}[H", cn_key_home()), ("\u{1B}[F", cn_key_end()),
            ("\u{1B}OH", cn_key_home()), ("\u{1B}OF", cn_key_end()),
            ("\u{1B}[1~", cn_key_home()), ("\u{1B}[4~", cn_key_end()),
            ("\u{1B}[7~", cn_key_home()), ("\u{1B}[8~", cn_key_end()),
            ("\u{1B}[3~", cn_key_dc()), ("\u{1B}[5~", cn_key_ppage()), ("\u{1B}[6~", cn_key_npage()),
            ("\u{1B}[Z", cn_key_btab()),
            ("\u{1B}OP", cn_key_f(1)), ("\u{1B}OQ", cn_key_f(2)),
            ("\u{1B}OR", cn_key_f(3)), ("\u{1B}OS", cn_key_f(4)),
        ]
        let vt220: [(Int32, Int)] = [
            (1, 11), (2, 12), (3, 13), (4, 14), (5, 15), (6, 17), (7, 18), (8, 19), (9, 20),
            (10, 21), (11, 23), (12, 24),
        ]
        for (number, parameter) in vt220 {
            list.append(("\u{1B}[\(parameter)~", cn_key_f(number)))
        }
        return list
    }()

    /// The code curses gives the start of a bracketed paste (`ESC [ 200 ~`).
    static var pasteStart: Int32 { cn_key_max() + 1 }
    /// The code curses gives the end of a bracketed paste (`ESC [ 201 ~`).
    static var pasteEnd: Int32 { cn_key_max() + 2 }

    /// Turns bracketed paste on: the terminal wraps pasted text in these markers, so a line
    /// break in it is text, never Enter.
    static let enableBracketedPaste = "\u{1B}[?2004h"
    /// Turns bracketed paste off again.
    static let disableBracketedPaste = "\u{1B}[?2004l"
    /// Turns every mouse-reporting mode off (for restoring after a crash, when curses cannot).
    static let disableMouse = "\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l"

    /// Binds every sequence the current screen's terminal does not already know, and the
    /// bracketed-paste markers.
    static func install() {
        for (sequence, code) in bindings where key_defined(sequence) == 0 {
            _ = define_key(sequence, code)
        }
        _ = define_key("\u{1B}[200~", pasteStart)
        _ = define_key("\u{1B}[201~", pasteEnd)
    }
}
