import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndTests {
    /// The mode bits of `path`.
    static func mode(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The token file, the log file and the card cache are the owner's alone even under umask
    /// 000. The umask is process-wide, so the `cardwallet` processes get it (through `/bin/sh`);
    /// the test process's own never changes while other suites make files.
    @Test func tokensLogAndCacheArePrivateUnderUmask000() async throws {
        try await CLIWorld.with { world in
            let login = try await world.start(
                ["login", "--email", CLIWorld.email, "--password-stdin"], input: CLIWorld.password + "\n",
                umask: "000"
            ).finish()
            #expect(login.status == 0, "\(login)")
            let list = try await world.start(["list"], umask: "000").finish()
            #expect(list.status == 0, "\(list)")

            let terminal = try PseudoTerminal()
            let screen = ScreenReader(terminal)
            let interface = try world.startInterface(on: terminal, umask: "000")
            defer { interface.signal(SIGKILL) }
            try await waitUntil("the interface's log file to record the list") {
                let log = (try? String(contentsOfFile: world.logFile, encoding: .utf8)) ?? ""
                return log.contains("GET /v1/cards")
            }
            let status = try String(contentsOfFile: "/proc/\(interface.processIdentifier)/status", encoding: .utf8)
            #expect(status.contains("Umask:\t0000"), "the interface runs under umask 000")
            terminal.type("q")
            _ = try await interface.finish()
            await screen.stop()

            let state = world.folder.path("state") + "/cardwallet"
            #expect(Self.mode(state) == 0o700)
            for name in ["tokens.json", "tokens.json.lock", "cardwallet.log"] {
                #expect(Self.mode(state + "/" + name) == 0o600, "\(name)")
            }
            let cache = Self.cacheFolder(world)
            #expect(Self.mode(cache) == 0o700)
            let files = try FileManager.default.contentsOfDirectory(atPath: cache)
            #expect(files.contains { $0.hasSuffix(".sqlite") }, "\(files)")
            for name in files { #expect(Self.mode(cache + "/" + name) == 0o600, "\(name)") }
        }
    }
}
