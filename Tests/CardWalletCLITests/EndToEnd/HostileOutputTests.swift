import CardAPIContract
import CardModels
import Foundation
import TestSupport
import Testing
import TokenStore

/// The real `cardwallet` against a hostile server (issue 13): what reaches the terminal, what
/// could leak, which addresses are refused. Each test failed before the change it covers.
@Suite(.serialized) struct HostileServerTests {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
    /// Every log level, with and without `-v`.
    static let loudness: [[String]] = logLevels.flatMap { level in
        [["--log-level", level], ["-v", "--log-level", level]]
    }
}

extension HostileServerTests {
    /// An unknown `errorCode` full of escape sequences, from a 401 to the login and a 500 to a
    /// card call, at every log level: nothing raw reaches standard output or error.
    @Test func anUnknownErrorCodeNeverReachesTheTerminalRaw() async throws {
        let code = "E99" + Hostile.injection
        try await HostileWorld.with({ request in
            request.path == "/v1/auth/login"
                ? .error(status: 401, code: code, message: "no" + Hostile.injection)
                : .error(status: 500, code: code, message: Hostile.injection)
        }) { world in
            var results: [CLIResult] = []
            for options in Self.loudness {
                results.append(
                    try await world.run(
                        ["login", "--kind", "cardAPI", "--email", Hostile.email, "--password-stdin"] + options,
                        input: Hostile.password + "\n"))
            }
            try await world.storeSession()
            for options in Self.loudness {
                results.append(try await world.run(["list"] + options))
                results.append(try await world.run(["show", "card_1", "--json"] + options))
            }
            for result in results {
                #expect(result.status == 1, "\(result)")
                Hostile.expectNoRawControls(result)
            }
            // The code is shown, escaped, and cut short.
            #expect(results[0].stderr.contains("error code E99^[]52;c;"), "\(results[0])")
        }
    }

    /// The account a login returns goes into log metadata (`account=`): with `--log-level info`
    /// and more it reaches standard error escaped, as does every other command's output.
    @Test func logMetadataFromTheServerIsEscapedAtEveryLevel() async throws {
        let email = "ada" + Hostile.injection + "@hostile.example"
        try await HostileWorld.with({ request in
            switch request.path {
            case "/v1/auth/login": .success(Hostile.grant(email: email))
            case "/v1/cards":
                .success(
                    APICardPage(cards: [Hostile.card("c1", name: Hostile.injection)], total: 1, offset: 0, limit: 200))
            default: .error(status: 404, code: "E05")
            }
        }) { world in
            var results: [CLIResult] = []
            for options in Self.loudness {
                results.append(
                    try await world.run(
                        ["login", "--email", email, "--password-stdin"] + options, input: Hostile.password + "\n"))
                results.append(try await world.run(["list"] + options))
                results.append(try await world.run(["status"] + options))
            }
            for result in results { Hostile.expectNoRawControls(result) }
            let info = try #require(results.first { $0.arguments.contains("info") && $0.arguments.first == "login" })
            #expect(info.status == 0, "\(info)")
            #expect(info.stderr.contains("account=ada^[]52;c;"), "\(info)")
        }
    }

    /// A token with a line break (or any character a header cannot hold) from the login is
    /// refused with a clear message; it is never stored and never shown, in any form.
    @Test func aLoginTokenThatCannotBeAHeaderIsRefusedAndNeverShown() async throws {
        for (access, refresh) in [
            ("cwa_CANARYlogin0123456789\n", "cwr_fine0123456789"),
            ("cwa_fine0123456789", "cwr_CANARYlogin01 23\u{1B}[2J"),
        ] {
            try await HostileWorld.with({ _ in .success(Hostile.grant(accessToken: access, refreshToken: refresh)) }) {
                world in
                let login = try await world.run(
                    ["login", "--email", Hostile.email, "--password-stdin", "-v", "--log-level", "trace"],
                    input: Hostile.password + "\n")
                #expect(login.status == 1, "\(login)")
                #expect(login.stderr.contains("cardwallet refused the tokens and stored nothing"), "\(login)")
                #expect(!login.allOutput.contains("CANARYlogin"), "\(login)")
                #expect(!world.tokenFileText().contains("CANARY"))
                #expect(try TokenStore(path: world.tokenFile).items().isEmpty)
                Hostile.expectNoRawControls(login)
            }
        }
    }

    /// The same from a refresh: the new pair is refused, the old one stays, nothing leaks.
    @Test func aRefreshedTokenThatCannotBeAHeaderIsRefusedAndNeverShown() async throws {
        try await HostileWorld.with({ request in
            request.path == "/v1/auth/refresh"
                ? .success(Hostile.grant(accessToken: "cwa_CANARYrefresh0123456789\r\n"))
                : .success(APICardPage(cards: [], total: 0, offset: 0, limit: 200))
        }) { world in
            try await world.storeSession(accessValidFor: -60)
            let list = try await world.run(["list", "-v", "--log-level", "trace"])
            #expect(list.status == 1, "\(list)")
            #expect(list.stderr.contains("POST /v1/auth/refresh (status 200)"), "\(list)")
            #expect(list.stderr.contains("refused the tokens"), "\(list)")
            #expect(!list.allOutput.contains("CANARYrefresh"), "\(list)")
            #expect(!world.tokenFileText().contains("CANARY"))
            #expect(world.tokenFileText().contains(Hostile.refreshToken))
            #expect(world.server.requests(to: "/v1/cards").isEmpty)
        }
    }

    /// A token already in the token file that a header cannot carry (left by an older version,
    /// or edited): AsyncHTTPClient refuses the request with an error quoting the header value
    /// escaped (`invalidHeaderFieldValues(["Bearer cwa_…\n"])`). No form of it is shown.
    @Test func aStoredTokenThatCannotBeAHeaderIsNeverShown() async throws {
        try await HostileWorld.with({ _ in .success(APICardPage(cards: [], total: 0, offset: 0, limit: 200)) }) {
            world in
            try await world.storeSession(accessToken: "cwa_CANARYstored0123456789\n")
            for options in [[], ["-v", "--log-level", "trace"], ["--log-level", "debug"]] {
                let list = try await world.run(["list"] + options)
                #expect(list.status == 1, "\(list)")
                #expect(list.stderr.contains("a request header holds characters HTTP does not allow"), "\(list)")
                #expect(!list.allOutput.contains("CANARYstored"), "\(list)")
                Hostile.expectNoRawControls(list)
            }
            #expect(world.server.requests.isEmpty)
        }
    }

    /// `http://user:password@host/v1` from the flag, the environment or the config file is
    /// refused (exit 64) before anything is sent; the password is never echoed nor stored.
    @Test func aPasswordInTheServerAddressIsRefusedNeverEchoedNorStored() async throws {
        try await HostileWorld.with({ _ in .success(Hostile.grant()) }) { world in
            let address = world.server.baseURL.replacingOccurrences(of: "http://", with: "http://ada:S3cretCanaryPw@")
            let config = try world.folder.write(#"{"server": "\#(address)"}"#, to: "with-password.json")
            let login = ["login", "--email", Hostile.email, "--password-stdin"]
            let results = [
                try await world.run(login + ["--server", address], input: Hostile.password + "\n"),
                try await world.run(login, input: Hostile.password + "\n", environment: ["CARDWALLET_SERVER": address]),
                try await world.run(
                    login + ["--config", config], input: Hostile.password + "\n", environment: ["CARDWALLET_SERVER": ""]
                ),
                try await world.run(["list"], environment: ["CARDWALLET_SERVER": address]),
            ]
            for result in results {
                #expect(result.status == 64, "\(result)")
                #expect(result.stderr.contains("holds a user name or password"), "\(result)")
                #expect(!result.allOutput.contains("S3cretCanaryPw"), "\(result)")
            }
            #expect(world.server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: world.tokenFile))
        }
    }

    /// Plain `http://` goes only to this computer; another host needs `https://` or an explicit
    /// `--allow-insecure-http` (or its variable or config key), which warns every time.
    @Test func plainHTTPToAnotherComputerIsRefusedUnlessAllowedWithAWarning() async throws {
        try await HostileWorld.with({ _ in .error(status: 500, code: "E99") }) { world in
            let remote = "http://192.0.2.7:9/v1"
            for arguments in [["status"], ["list"], ["login", "--email", Hostile.email, "--password-stdin"]] {
                let refused = try await world.run(arguments + ["--server", remote], input: Hostile.password + "\n")
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("Refusing to send your password and tokens to \(remote)"), "\(refused)")
                #expect(refused.stderr.contains("--allow-insecure-http"), "\(refused)")
            }
            let allowConfig = try world.folder.write(#"{"allowInsecureHTTP": true}"#, to: "allow.json")
            for (options, environment) in [
                (["--allow-insecure-http"], [:]), ([], ["CARDWALLET_ALLOW_INSECURE_HTTP": "true"]),
                (["--config", allowConfig], [:]),
            ] {
                let allowed = try await world.run(["status", "--server", remote] + options, environment: environment)
                #expect(allowed.status == 3, "\(allowed)")
                #expect(
                    allowed.stderr.contains("warning: your password and tokens go to \(remote) unencrypted"),
                    "\(allowed)")
            }
            for server in [
                "https://192.0.2.7:9/v1", "http://localhost:9/v1", "http://127.0.0.2:9/v1", "http://[::1]:9/v1",
            ] {
                let fine = try await world.run(["status", "--server", server])
                #expect(fine.status == 3, "\(fine)")
                #expect(!fine.stderr.contains("unencrypted"), "\(fine)")
            }
            #expect(world.server.requests.isEmpty)
        }
    }
}
