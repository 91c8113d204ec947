import CardMockServer
import Foundation
import Glibc

/// What #17's first-frame figure runs on: §4's 1,000 sample cards put in a local cache by
/// `cardwallet sync` (the real code path, from the in-process mock server), written as a vdir by
/// `cardwallet export --vdir` for khard and as an addressbook for abook; then the server is
/// stopped and its port held **refused** (bound, never listening), so every wallet session paints
/// the cache and the list request fails at once ("offline — cards as of …").
final class FirstFrameFixture: Sendable {
    let terminal: TerminalFixture
    /// The environment of every `cardwallet` run: §4's wallet environment plus the cache folder.
    let environment: [String: String]
    /// The vdir khard reads (one `UID.vcf` per card).
    let vdir: String
    /// A khard.conf naming only that vdir.
    let khardConfiguration: String
    private let refused: RefusedPort

    private init(
        terminal: TerminalFixture, environment: [String: String], vdir: String, khardConfiguration: String,
        refused: RefusedPort
    ) {
        self.terminal = terminal
        self.environment = environment
        self.vdir = vdir
        self.khardConfiguration = khardConfiguration
        self.refused = refused
    }

    /// Fills the cache and the vdir from a mock server holding `count` cards, then stops the
    /// server and holds its port refused.
    ///
    /// - Throws: ``BenchError`` when a step fails or its result is not `count` cards.
    static func start(count: Int, cardwallet: String) async throws -> FirstFrameFixture {
        let terminal = try await TerminalFixture.start(count: count)
        do {
            let wallet = terminal.wallet(executable: cardwallet)
            let environment = wallet.environment.merging(["XDG_CACHE_HOME": try terminal.folder.folder("cache")]) {
                $1
            }
            let synced = try Spawn.captured(cardwallet, ["sync"], environment: environment)
            guard synced.status == 0, synced.output.contains("\(count) card(s) in the cache") else {
                throw BenchError(
                    "cardwallet sync did not cache \(count) cards: status \(synced.status), \(synced.output)")
            }
            let vdir = terminal.folder.path + "/vdir"
            let exported = try Spawn.captured(cardwallet, ["export", "--vdir", vdir], environment: environment)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: vdir))?.filter { $0.hasSuffix(".vcf") }
            guard exported.status == 0, files?.count == count else {
                throw BenchError(
                    "cardwallet export --vdir wrote \(files?.count ?? 0) vCards, not \(count) (status \(exported.status))"
                )
            }
            let khardConfiguration = terminal.folder.path + "/khard.conf"
            try Data(khardFile(vdir: vdir).utf8).write(to: URL(fileURLWithPath: khardConfiguration))
            let port = terminal.server.baseURL.port ?? 0
            await terminal.server.stop()
            let refused = try RefusedPort(port: port)
            return FirstFrameFixture(
                terminal: terminal, environment: environment, vdir: vdir, khardConfiguration: khardConfiguration,
                refused: refused)
        } catch {
            await terminal.stop()
            throw error
        }
    }

    /// khard's configuration: one address book, the vdir; defaults for the rest.
    static func khardFile(vdir: String) -> String {
        """
        # Written by cardwallet-bench (#17 first frame): the wallet's cards as a vdir.
        [addressbooks]
        [[wallet]]
        path = \(vdir)

        [general]
        default_action = list

        """
    }

    /// Releases the port and removes the folder (the server is already stopped).
    func stop() async {
        refused.close()
        await terminal.stop()
    }
}

/// A TCP port on 127.0.0.1 bound but never listening: connections to it are refused at once,
/// and while it is held the kernel hands it to no other socket as an ephemeral port.
final class RefusedPort: Sendable {
    private let descriptor: Int32

    /// Binds `port`.
    ///
    /// - Throws: ``BenchError`` when the port cannot be bound (another process took it).
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw BenchError("cannot hold the stopped server's port \(port) refused: \(reason)")
        }
        self.descriptor = descriptor
    }

    /// Lets the port go.
    func close() {
        Glibc.close(descriptor)
    }
}
