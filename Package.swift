// swift-tools-version: 6.2
// Hummingbird 2.28, AsyncHTTPClient 1.37 and swift-configuration 1.4 declare tools 6.2.

import PackageDescription

let package = Package(
    name: "CardWallet",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "cardwallet", targets: ["cardwallet"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "TokenStore", targets: ["TokenStore"]),
        .library(name: "Secrets", targets: ["Secrets"]),
        .library(name: "TextSafety", targets: ["TextSafety"]),
        .library(name: "CardModels", targets: ["CardModels"]),
        .library(name: "CardAPIContract", targets: ["CardAPIContract"]),
        .library(name: "CardBackend", targets: ["CardBackend"]),
        .library(name: "CardProviders", targets: ["CardProviders"]),
        .library(name: "SessionCore", targets: ["SessionCore"]),
        .library(name: "OAuth", targets: ["OAuth"]),
        .library(name: "CardAPI", targets: ["CardAPI"]),
        .library(name: "CardVCard", targets: ["CardVCard"]),
        .library(name: "CardWalletUI", targets: ["CardWalletUI"]),
        .library(name: "CardWalletLive", targets: ["CardWalletLive"]),
        .library(name: "CursesTerminal", targets: ["CursesTerminal"]),
        .library(name: "CardMockServer", targets: ["CardMockServer"]),
        .library(name: "CardImages", targets: ["CardImages"]),

        .library(name: "DomainNames", targets: ["DomainNames"]),
        .library(name: "CardScanCore", targets: ["CardScanCore"]),
        .library(name: "CardScan", targets: ["CardScan"]),
        .library(name: "CardCache", targets: ["CardCache"]),
        .library(name: "CardDAV", targets: ["CardDAV"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Trust roots for the CardDAV redirect tests' certificate authority (CardDAVTests only;
        // AsyncHTTPClient depends on it already).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // AsyncChannel: the CardDAV multiget's fetch → parse → store pipeline, with back-pressure.
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        // SQLite for the mock server's --data file; links the system SQLite (libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // MARK: Libraries, lowest layer first. Dependencies only point up this list.
        // Untrusted text made safe for a terminal: the one function every layer uses.
        .target(name: "TextSafety"),
        // Blocking work on a thread of its own, off the cooperative pool: the one helper.
        .target(name: "OwnThreads"),
        .target(
            name: "Networking",
            dependencies: [
                "TextSafety",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                // Streams file uploads and downloads without loading them (the module is NIOFileSystem;
                // Hummingbird depends on the same product).
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TokenStore"),
        .target(name: "CardModels", dependencies: ["TextSafety"]),
        // The Public Suffix List (Debian's `publicsuffix`): endings and registrable domains, for
        // the scanner's host names and for where the CardDAV client may send the password.
        .target(name: "DomainNames"),
        // The card API's wire format (envelopes, error codes, the multipart form, the JSON of a
        // card with its integer version): shared by the client (CardAPI) and the mock server.
        .target(name: "CardAPIContract", dependencies: ["CardModels"]),
        // The seam: one protocol for a place where cards live (docs/Architecture.md). The card
        // API and CardDAV implement it; everything above holds `any CardBackend`.
        .target(name: "CardBackend", dependencies: ["CardModels"]),
        // libsecret (the freedesktop Secret Service: GNOME Keyring, KeePassXC, KWallet), loaded with
        // dlopen at the first use rather than linked, so a start never maps it and GLib behind it.
        .target(name: "CSecretLoader"),
        // Where an account's password lives: the keyring, a password command, the token file.
        .target(
            name: "Secrets", dependencies: ["CSecretLoader", "TokenStore", "CardBackend", "TextSafety", "OwnThreads"]),
        // How backends are registered: each backend module offers one provider (it probes an
        // address, builds a backend from an account record, says which logins it takes); the
        // composition root holds the list (docs/Architecture.md, "How to add a backend").
        .target(
            name: "CardProviders",
            dependencies: [
                "CardBackend", "CardModels", "TokenStore", "Networking",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The token session both token-based servers share (docs/Session.md): the single refresh in
        // flight across processes, the margin, the loop guard, the bearer interceptor. The card API
        // and OAuth 2.0 each give it their refresh and their verdicts (`TokenExchange`).
        .target(
            name: "SessionCore",
            dependencies: [
                "Networking", "TokenStore", "CardBackend",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // OAuth 2.0 for installed apps (docs/CardDAV.md, "Google Contacts and OAuth 2.0"): metadata
        // (RFC 8414, OpenID Connect discovery), the authorization code flow with PKCE and a loopback
        // redirect (RFC 7636, RFC 8252; the listener on NIO), the token endpoint, and the refresh
        // the shared session runs (`OAuthTokenExchange`).
        .target(
            name: "OAuth",
            dependencies: [
                "Networking", "TokenStore", "SessionCore", "CardBackend", "TextSafety",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // vCard 2.1/3.0/4.0 in and out, pure Swift; CHARSET conversion through glibc's iconv.
        .target(name: "CardVCard", dependencies: ["CardModels"]),
        .target(
            name: "CardAPI",
            dependencies: [
                "Networking", "TokenStore", "CardModels", "CardAPIContract", "CardBackend", "CardProviders",
                "SessionCore", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A CardDAV client (RFC 6352, 6578, 6764) on the Networking core (docs/CardDAV.md): its own
        // XML reader (no DTD, capped), discovery, sync by token, ETag-guarded writes.
        .target(
            name: "CardDAV",
            dependencies: [
                "Networking", "TextSafety", "CardBackend", "CardProviders", "CardModels", "CardVCard", "TokenStore",
                "DomainNames", "SessionCore", "OAuth",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The pure TUI core: states, reducers, key tables, renderer, main loop. Card models only.
        .target(name: "CardWalletUI", dependencies: ["CardModels"]),
        // The local cache (docs/Cache.md): one SQLite file per server and account through GRDB,
        // with FTS5 search over every field and an outbox of offline changes. Never a token.
        .target(
            name: "CardCache",
            dependencies: [
                "CardModels",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for the search's FTS5 auxiliary function and its row loop.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The module map links ncursesw and tinfo directly: pkg-config's flags for ncursesw
        // include -D defines that SwiftPM rejects with a warning.
        .systemLibrary(name: "CNCurses", providers: [.apt(["libncurses-dev"])]),
        .target(name: "CursesTerminal", dependencies: ["CNCurses", "CardWalletUI"]),
        .target(
            name: "CardMockServer",
            dependencies: [
                "CardModels", "CardAPIContract",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),

        // Pictures in the terminal: PNG/JPEG decoding, scaling, the kitty/iTerm2/sixel/half-block
        // encoders, protocol detection, QR codes (docs/Images.md). One system library per C library.
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        // libjpeg's error exit must longjmp; shim.h keeps every setjmp/longjmp inside C functions.
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CQRencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "CardImages", dependencies: ["CardModels", "CPNG", "CJPEG", "CQRencode"]),

        // Reading a photo of a paper card (docs/Scan.md): the pure field extraction, and the
        // Tesseract and Leptonica wrapper that owns every C pointer.
        .target(name: "CardScanCore", dependencies: ["CardModels", "DomainNames"]),
        // Tesseract's and Leptonica's headers only: the libraries are not linked, so that
        // `cardwallet` starts without them; CTesseractLoader defines the functions CardScan
        // calls and loads libtesseract with dlopen at the first scan.
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        .target(name: "CTesseractLoader", dependencies: ["CTesseract"]),
        .target(
            name: "CardScan",
            dependencies: ["CTesseract", "CTesseractLoader", "CardScanCore", "CardImages", "OwnThreads"]),

        // The live glue: performs the core's calls through the account's backend (the card API's
        // or a CardDAV server's, behind CardBackend) and the cache (and pictures, QR codes, vCard
        // import and export, scans through their libraries), makes its log lines, feeds its inbox
        // through one ordered sink, writes the log file.
        .target(
            name: "CardWalletLive",
            dependencies: [
                "CardWalletUI", "CardModels", "CardBackend", "CardProviders", "CardAPI", "CardDAV", "Networking",
                "TokenStore", "Secrets", "CardImages", "OAuth",
                "CardVCard", "CardScan", "CardScanCore", "CardCache", "OwnThreads",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: The thin executable that wires the live pieces.
        .executableTarget(
            name: "cardwallet",
            dependencies: [
                "Networking", "TokenStore", "Secrets", "CardModels", "CardBackend", "CardProviders", "CardVCard",
                "CardWalletUI", "CardWalletLive", "CursesTerminal", "CardMockServer", "CardImages", "CardScanCore",
                "CardScan", "OAuth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Benchmarks (`swift run -c release cardwallet-bench`; `--quick` is the CI smoke run).
        // openpty(3), for running the TUI and abook in a pseudo-terminal (§4, §6).
        .systemLibrary(name: "CPseudoTerminal"),
        // One pseudo-terminal pair for the curses, CLI and image tests and the bench's terminal figures.
        .target(name: "PseudoTerminalSupport", dependencies: ["CPseudoTerminal"]),
        // libchafa, only to compare our image scaler and encoders with (images figure).
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        .executableTarget(
            name: "cardwallet-bench",
            dependencies: [
                "CardModels", "CardAPIContract", "CardBackend", "CardWalletUI", "CardWalletLive", "CardMockServer",
                "CardAPI", "CardDAV",
                "Networking", "TokenStore",
                "PseudoTerminalSupport", "CardImages", "CChafa", "CardScan", "CardScanCore", "CardVCard", "CardCache",
                "OwnThreads",
                // Not linked: listed so that `swift run cardwallet-bench` also builds the
                // `cardwallet` binary the startup figure spawns.
                "cardwallet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Test helpers
        // The child process of TokenStoreTests' multi-process tests (not shipped).
        .executableTarget(name: "tokenstore-stress", dependencies: ["TokenStore"]),
        // The keyring from the command line, for SecretsTests' private session bus (not shipped).
        .executableTarget(name: "keyring-tool", dependencies: ["Secrets", "TokenStore"]),
        // CardImages from the command line, for scripts/image-peers.py (not shipped).
        .executableTarget(name: "cardimages-tool", dependencies: ["CardImages"]),

        // MARK: Tests
        // What several test targets share: waiting on a condition with a deadline, a manual clock.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A place where cards live, in memory: the backend seam's test double (string revisions,
        // sync tokens), driving the cache, the outbox, the interface's glue and the commands.
        .target(
            name: "InMemoryBackend", dependencies: ["CardBackend", "CardProviders", "CardModels"],
            path: "Tests/InMemoryBackend"),
        // The live tests' surroundings: the mock server on port 0, a live transport, a token file.
        .target(
            name: "LiveTestSupport", dependencies: ["TestSupport", "CardMockServer", "Networking", "TokenStore"],
            path: "Tests/LiveTestSupport"),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "Networking", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Fixtures/ holds a token file written by an earlier cardwallet (format version 1).
        .testTarget(
            name: "TokenStoreTests", dependencies: ["TokenStore", "TestSupport", "tokenstore-stress"],
            exclude: ["Fixtures"]),
        .testTarget(name: "CardModelsTests", dependencies: ["CardModels", "CardAPIContract"]),
        // The keyring against a real GNOME Keyring on a private session bus (PrivateKeyring).
        .testTarget(
            name: "SecretsTests", dependencies: ["Secrets", "TokenStore", "CardBackend", "TestSupport", "keyring-tool"]),
        // The corpus in Fixtures/ is read through #filePath (the CLI tests and scripts use it too).
        .testTarget(name: "CardVCardTests", dependencies: ["CardVCard", "CardModels"], exclude: ["Fixtures"]),
        .testTarget(name: "CardImagesTests", dependencies: ["CardImages", "PseudoTerminalSupport"]),

        .testTarget(name: "CardScanCoreTests", dependencies: ["CardScanCore", "CardModels"]),
        .testTarget(name: "DomainNamesTests", dependencies: ["DomainNames"]),
        // Runs the real OCR on cards scripts/make-scan-cards.py renders at test time.
        .testTarget(name: "CardScanTests", dependencies: ["CardScan", "CardScanCore", "CardModels", "CardImages"]),
        .testTarget(
            name: "CardAPITests",
            dependencies: [
                "CardAPI", "CardAPIContract", "Networking", "CardModels", "TokenStore", "CardMockServer", "TestSupport",
                "LiveTestSupport", "SessionCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CardCacheTests",
            dependencies: [
                "CardCache", "CardModels", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            // Fixtures/ holds a cache file written by an earlier cardwallet (the first schema).
            exclude: ["Fixtures"]
        ),
        // Unit tests on the stub transport, and live tests against Radicale and Xandikos, which
        // scripts/carddav-server.py starts (scripts/requirements-carddav.txt); the redirect tests
        // reach them over https under several host names (AsyncHTTPClient's DNS override, NIOSSL
        // trust roots).
        .testTarget(
            name: "CardDAVTests",
            dependencies: [
                "CardDAV", "Networking", "TestSupport", "CardBackend", "CardModels", "CardCache", "CardWalletLive",
                "CardVCard", "TokenStore", "CardProviders", "Secrets", "CardWalletUI", "CardMockServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The OAuth tests' real peers (Authlib's authorization server, a Radicale that takes its tokens
        // by introspection, a Google-shaped front: scripts/oauth-server.py, scripts/carddav-server.py)
        // and the browser the tests play; shared by OAuthTests and CardWalletCLITests.
        .target(
            name: "OAuthTestSupport",
            dependencies: [
                "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/OAuthTestSupport"),
        .testTarget(
            name: "OAuthTests",
            dependencies: [
                "OAuth", "SessionCore", "CardDAV", "CardWalletLive", "CardWalletUI", "CardBackend", "CardProviders",
                "CardCache",
                "CardModels", "Secrets", "TokenStore", "Networking", "TestSupport", "OAuthTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "CardWalletUITests", dependencies: ["CardWalletUI", "CardModels", "TestSupport"]),
        .testTarget(
            name: "CardWalletLiveTests",
            dependencies: [
                "CardWalletLive", "CardWalletUI", "CardModels", "CardAPI", "CardBackend", "Networking", "TokenStore",
                "CardMockServer", "TestSupport", "LiveTestSupport", "CardCache", "InMemoryBackend", "CardVCard",
                "CardProviders", "Secrets",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CursesTerminalTests", dependencies: ["CursesTerminal", "CardWalletUI", "PseudoTerminalSupport"]),
        .testTarget(name: "CardWalletBenchTests", dependencies: ["cardwallet-bench", "OwnThreads"]),
        .testTarget(
            name: "CardMockServerTests",
            dependencies: [
                "CardMockServer", "CardModels", "CardAPIContract", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Depends on the executable for `@testable import cardwallet` and so that the binary the
        // end-to-end tests spawn is built before them.
        .testTarget(
            name: "CardWalletCLITests",
            dependencies: [
                "cardwallet", "CardAPI", "CardAPIContract", "CardBackend", "CardModels", "CardMockServer", "CardVCard",
                "CardWalletUI",
                "CardWalletLive", "Networking", "TokenStore", "TestSupport", "PseudoTerminalSupport", "CardImages",
                "CardCache", "InMemoryBackend", "CardProviders", "Secrets", "OAuthTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The hostile test server (Support/Hostile): raw bytes on a socket, no HTTP codec.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// One settings loop, as swift-log does: the same strictness for every target. With internal
// imports by default and member import visibility, every `public import` is a decision: a
// module's public API shows only the modules it says it shows.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableExperimentalFeature("StrictConcurrency"))
    target.swiftSettings = settings
}
