import Foundation

/// Paths typed by people: the one place `~` is expanded.
public enum LocalPath {
    /// `text` with a leading `~` (alone or as `~/…`) replaced by `home`; `nil` when it needs a
    /// home and there is none (no absolute `HOME`). Other text comes back as it is.
    public static func expandingHome(_ text: String, home: String?) -> String? {
        guard text == "~" || text.hasPrefix("~/") else { return text }
        guard let home, home.hasPrefix("/") else { return nil }
        return home + text.dropFirst()
    }

    /// `text` with `~` expanded to this process's home folder (left as it is without one).
    public static func expandingHome(_ text: String) -> String {
        expandingHome(text, home: ProcessInfo.processInfo.environment["HOME"]) ?? text
    }

    /// `path` with `~` expanded to the home folder and a relative path made absolute.
    public static func expand(_ path: String) -> String {
        var text = expandingHome(path.trimmingCharacters(in: .whitespaces))
        if !text.hasPrefix("/") { text = FileManager.default.currentDirectoryPath + "/" + text }
        return URL(fileURLWithPath: text).standardizedFileURL.path
    }
}
