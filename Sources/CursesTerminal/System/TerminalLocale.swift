import CNCurses

/// Makes the C library's character handling UTF-8, which ncursesw needs for wide characters.
enum TerminalLocale {
    /// Locales tried for `LC_CTYPE` when the environment's own locale is not UTF-8.
    static let fallbacks = ["C.UTF-8", "C.utf8", "en_US.UTF-8"]

    /// Whether the current `LC_CTYPE` is UTF-8.
    static var isUTF8: Bool { cn_is_utf8_codeset() != 0 }

    /// Adopts the environment's locale (`setlocale(LC_ALL, "")`) and, when that is not UTF-8 (an
    /// unset `LANG`, or `LANG=C`), switches `LC_CTYPE` alone to the first UTF-8 fallback that
    /// exists; messages and formats keep the user's choice.
    ///
    /// Runs once per process: `setlocale` is not thread-safe, and the answer does not change.
    /// - Returns: Whether a UTF-8 `LC_CTYPE` is in effect.
    static func ensureUTF8() -> Bool {
        adopted
    }

    private static let adopted: Bool = {
        _ = setlocale(LC_ALL, "")
        if isUTF8 { return true }
        for name in fallbacks where setlocale(LC_CTYPE, name) != nil {
            if isUTF8 { return true }
        }
        return false
    }()
}
