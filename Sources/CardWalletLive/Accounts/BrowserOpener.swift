public import Foundation

/// Opens an address in the person's browser with `xdg-open`, where there is a display to show
/// it on (`DISPLAY` or `WAYLAND_DISPLAY`); its output goes nowhere, so it never draws over the
/// interface. Elsewhere (ssh, a console) nothing is run and the caller prints the address for
/// the person to open on another device.
public enum BrowserOpener {
    /// Whether a browser can be opened here: a display, and `CARDWALLET_NO_BROWSER` unset.
    public static func canOpen(environment: [String: String]) -> Bool {
        if let off = environment["CARDWALLET_NO_BROWSER"], !off.isEmpty { return false }
        let display = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        return display && executable(named: "xdg-open", environment: environment) != nil
    }

    /// Starts `xdg-open url` when ``canOpen(environment:)``; `true` when it was started.
    @discardableResult
    public static func open(_ url: URL, environment: [String: String]) -> Bool {
        guard canOpen(environment: environment), let path = executable(named: "xdg-open", environment: environment)
        else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [url.absoluteString]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        // Reaped in the background: xdg-open hands the address to the browser and exits.
        Thread.detachNewThread { process.waitUntilExit() }
        return true
    }

    /// The first executable `name` on `PATH`.
    static func executable(named name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
