import CardWalletUI
import Foundation

/// Opens a web address in the user's browser (`$BROWSER`, else `xdg-open`) and a `mailto:` link
/// in their mail program (`xdg-open`), detached from the terminal: the program's own output
/// goes nowhere, and the interface keeps the screen.
enum ExternalOpener {
    /// The interface's opener: starts the program and returns at once; why not, when it cannot.
    static func open(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let isWeb = url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")
        // $BROWSER may list several programs, separated by colons: the first is used.
        let browser = environment["BROWSER"]?.split(separator: ":").first.map(String.init)
        let name = isWeb ? (browser ?? "xdg-open") : "xdg-open"
        guard let program = executable(named: name, path: environment["PATH"] ?? "/usr/bin:/bin") else {
            return isWeb
                ? "\(name) is not installed; set BROWSER to your browser"
                : "xdg-open is not installed, so no mail program can be started"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return "\(name) could not start: \(error.localizedDescription)"
        }
        // Reaped in the background, so no zombie stays behind.
        Thread.detachNewThread { process.waitUntilExit() }
        return nil
    }

    /// The executable file `name` names: a path when it has a slash, else the first on `path`.
    static func executable(named name: String, path: String) -> String? {
        let manager = FileManager.default
        if name.contains("/") { return manager.isExecutableFile(atPath: name) ? name : nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/" + name
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
