import Foundation
import Testing

@testable import TokenStore

@Suite("Default location from the environment")
struct LocationTests {
    @Test("XDG_STATE_HOME wins when it is absolute")
    func xdgStateHome() throws {
        let store = try TokenStore(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
        #expect(store.path == "/x/state/cardwallet/tokens.json")
        #expect(store.lockPath == "/x/state/cardwallet/tokens.json.lock")
        #expect(store.folderPath == "/x/state/cardwallet")
    }

    @Test(
        "HOME/.local/state when XDG_STATE_HOME is unset, empty or relative",
        arguments: [nil, "", "relative/state"] as [String?])
    func homeFallback(xdg: String?) throws {
        var environment = ["HOME": "/home/u/"]
        environment["XDG_STATE_HOME"] = xdg
        let store = try TokenStore(environment: environment)
        #expect(store.path == "/home/u/.local/state/cardwallet/tokens.json")
    }

    @Test("No usable variable gives a clear error")
    func noLocation() {
        #expect(throws: TokenStoreError.noStateLocation) {
            try TokenStore(environment: ["HOME": "relative"])
        }
        #expect(throws: TokenStoreError.noStateLocation) {
            try StateDirectory(environment: [:])
        }
        #expect(TokenStoreError.noStateLocation.description.contains("XDG_STATE_HOME"))
    }

    @Test("The state folder names the log file beside the tokens")
    func stateFolderFiles() throws {
        let state = try StateDirectory(environment: ["XDG_STATE_HOME": "/s"])
        #expect(state.path == "/s/cardwallet")
        #expect(state.filePath(named: "cardwallet.log") == "/s/cardwallet/cardwallet.log")
        #expect(TokenStore(stateDirectory: state).path == "/s/cardwallet/tokens.json")
    }

    @Test("A relative explicit path is made absolute")
    func relativePath() {
        let store = TokenStore(path: "some/tokens.json")
        #expect(store.path.hasPrefix("/"))
        #expect(store.path.hasSuffix("/some/tokens.json"))
    }
}
