import CardMockServer
import Foundation

/// What the demo tells people: in the log pane while it runs, and on the terminal after.
///
/// Every line the log pane shows fits an 80-column terminal whole (``paneWidth``): the pane
/// puts the time and a marker before each note and cuts what does not fit, and a command cut
/// in the middle cannot be pasted. The admin commands are therefore split: one line sets two
/// shell variables (the admin URL and the account), and each command that uses them is short.
struct DemoNotes {
    /// The server's base URL.
    let baseURL: String
    /// The account filled in, if any.
    let email: String?
    /// The server's configuration.
    let configuration: MockServerConfiguration

    /// The widest a note may be: an 80-column log pane less its margins (1 each side) and the
    /// `14:03:05 * ` before every note.
    static let paneWidth = 80 - 2 - "14:03:05 * ".count

    /// The log pane's first lines: the server, the token lifetimes, how to end the session.
    var whileRunning: [String] {
        var lines = [
            "demo server: \(baseURL) (in this process)",
            "access tokens live \(configuration.accessTokenTTL), so refreshes show here",
        ]
        if configuration.admin {
            lines += [
                "to end the session from another shell, set there",
                "  a=\(baseURL)/_admin e=\(Self.shellWord(email ?? "EMAIL"))",
                "then expire the access tokens (the next request refreshes them):",
                "  " + Self.command("expire"),
                "or revoke the refresh tokens (E06: the login dialog opens):",
                "  " + Self.command("revoke"),
            ]
        } else {
            lines.append("start the demo with --admin to end the session from another shell")
        }
        return lines
    }

    /// The lines printed after the interface closed. The server is gone by then, so they say
    /// so and name no command for it.
    func afterExit(logPath: String?) -> [String] {
        var lines = ["The demo server at \(baseURL) has stopped; the demo's tokens are deleted."]
        if let dataFile = configuration.dataFile {
            lines.append("Its data is kept in \(dataFile).")
        }
        if let logPath { lines.append("Network log: \(logPath)") }
        if !configuration.admin {
            lines.append(
                "To expire or revoke the session from another shell, start `cardwallet demo --admin`: "
                    + "its log pane shows how.")
        }
        return lines
    }

    /// `curl -X POST "$a/expire?email=$e"`, for the variables the note before sets.
    static func command(_ action: String) -> String {
        "curl -X POST \"$a/\(action)?email=$e\""
    }

    /// `text` as one shell word: as it is when it holds only characters no shell treats
    /// specially, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "@._+-:/".unicodeScalars.contains(scalar)
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
