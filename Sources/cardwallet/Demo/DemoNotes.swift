import CardMockServer

/// What the demo tells people: in the log pane while it runs, and on the terminal after.
struct DemoNotes {
    /// The server's base URL.
    let baseURL: String
    /// The account filled in, if any.
    let email: String?
    /// The server's configuration.
    let configuration: MockServerConfiguration

    /// The log pane's first lines: the server, the token lifetimes, how to end the session.
    var whileRunning: [String] {
        var lines = [
            "demo server: \(baseURL) (in this process; access tokens live \(configuration.accessTokenTTL), "
                + "so refreshes show here)"
        ]
        if configuration.admin {
            lines.append("from another shell, expire the access tokens (a refresh follows): \(command("expire"))")
            lines.append(
                "or revoke the refresh tokens (E06 at the next refresh, then log in again): \(command("revoke"))")
        } else {
            lines.append("start the demo with --admin to expire or revoke the session from another shell")
        }
        return lines
    }

    /// The lines printed after the interface closed.
    func afterExit(logPath: String?) -> [String] {
        var lines = ["cardwallet demo: the server at \(baseURL) has stopped; the demo's tokens are deleted."]
        if let dataFile = configuration.dataFile {
            lines.append("Its data is kept in \(dataFile).")
        }
        if let logPath { lines.append("Network log: \(logPath)") }
        if configuration.admin {
            lines.append("While a demo runs, expire its session from another shell with")
        } else {
            lines.append("To expire the session from another shell, start `cardwallet demo --admin`; while it runs:")
        }
        lines.append("  \(command("expire", url: configuration.admin ? baseURL : "http://127.0.0.1:PORT/v1"))")
        return lines
    }

    private func command(_ action: String, url: String? = nil) -> String {
        let account = email ?? "EMAIL"
        return "curl -X POST '\(url ?? baseURL)/_admin/\(action)?email=\(account)'"
    }
}
