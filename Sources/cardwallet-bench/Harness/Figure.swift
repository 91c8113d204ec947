import ArgumentParser
import Foundation

/// The figures of issue 6 (§1–§6) and of later issues (#15, #16, #17, #18), by the name `run` (and `--figure`) takes.
///
/// Adding a figure: add its case here (with its section and title), write a type conforming
/// to ``Figure`` in `Figures/<Name>/`, and return it from ``figure``.
enum FigureID: String, CaseIterable, Sendable, ExpressibleByArgument {
    case layerOverhead = "layer-overhead"
    case refreshStorm = "refresh-storm"
    case listScale = "list-scale"
    case terminalBytes = "terminal-bytes"
    case mockServer = "mock-server"
    case startup
    case vcard
    case images
    case mockServerWrites = "mock-server-writes"
    case cache
    case firstFrame = "first-frame"
    case scan
    case carddav
    case oauthStorm = "oauth-storm"
    case allView = "all-view"

    /// The section of docs/BENCHMARKS.md it fills (§1–§6 answer issue 6, #16 and #17 their issues).
    var section: String {
        switch self {
        case .layerOverhead: "§1"
        case .refreshStorm: "§2"
        case .listScale: "§3"
        case .terminalBytes: "§4"
        case .mockServer: "§5"
        case .startup: "§6"
        case .vcard: "#15"
        case .images: "#16"
        case .mockServerWrites: "#17"
        case .scan: "#18"
        case .cache: "#17"
        case .firstFrame: "#17"
        case .carddav: "#28"
        case .allView: "#40"
        case .oauthStorm: "#39"
        }
    }

    /// A short title.
    var title: String {
        switch self {
        case .layerOverhead: "Layer overhead (CardAPI vs raw AsyncHTTPClient)"
        case .refreshStorm: "Refresh storm"
        case .listScale: "List scale"
        case .terminalBytes: "Bytes to the terminal, vs abook"
        case .mockServer: "Mock server throughput"
        case .startup: "Startup"
        case .vcard: "vCard parse and export, vs vobject"
        case .images: "Card images: decode, scale, encode per protocol; vs libchafa"
        case .mockServerWrites: "Mock server writes with --data"
        case .scan: "Scan a paper card (issue 18)"
        case .cache: "Local cache: search per keystroke, open and read"
        case .firstFrame: "First frame from the cache, vs abook and khard"
        case .carddav: "CardDAV sync vs the floor and vdirsyncer (Radicale)"
        case .allView: "The All view's first frame (3 books vs 1), the idle sync"
        case .oauthStorm: "Refresh storm on a CardDAV server behind OAuth 2.0 (Authlib, Radicale)"
        }
    }

    /// The figure that measures it.
    var figure: any Figure {
        switch self {
        case .layerOverhead: LayerOverheadFigure()
        case .refreshStorm: RefreshStormFigure()
        case .listScale: ListScaleFigure()
        case .terminalBytes: TerminalBytesFigure()
        case .mockServer: MockServerFigure()
        case .startup: StartupFigure()
        case .vcard: VCardFigure()
        case .images: ImagesFigure()
        case .mockServerWrites: MockServerWritesFigure()
        case .scan: ScanFigure()
        case .cache: CacheFigure()
        case .firstFrame: FirstFrameFigure()
        case .carddav: CardDAVSyncFigure()
        case .allView: AllViewFigure()
        case .oauthStorm: OAuthStormFigure()
        }
    }
}

/// What every figure gets: the mode, where the binaries are, and how to report progress.
struct BenchContext: Sendable {
    /// Tiny sizes and few rounds: a smoke run that finishes in seconds, in a debug build.
    var quick: Bool
    /// The bench's own executable, to re-run it as a child (memory probes).
    var benchExecutable: String
    /// The `cardwallet` executable (terminal and startup figures).
    var cardwalletExecutable: String
    /// Prints a progress line to standard error (standard output carries only the tables).
    var progress: @Sendable (String) -> Void
    /// Another `cardwallet` (the build before a change) that the first-frame figure runs in the
    /// same rounds, for a paired before/after; `nil` for none.
    var baselineCardwallet: String?
    /// The scan figure's cards: how many, and the generator's seed (`nil`: its committed one).
    var scanCards: Int = 60
    var scanSeed: Int?
    /// The CardDAV figure's book size (`nil`: 5,000, or 100 in quick mode); its memory probe
    /// also syncs a book 4× as large.
    var carddavCards: Int?
    /// The vCard figure's corpora (`nil`: both) and cards per file (`nil`: 10,000, or 300 in
    /// quick mode).
    var vcardCorpora: [VCardFigure.Corpus]?
    var vcardCards: Int?

    /// `full` normally, `quick` in quick mode.
    func pick<T>(full: T, quick: T) -> T { self.quick ? quick : full }

    /// The `cardwallet` executable, once it is known to be there.
    ///
    /// - Throws: ``BenchError`` saying how to build it when it is missing.
    func cardwallet() throws -> String {
        try Self.executable(
            cardwalletExecutable,
            else:
                ": build it first (swift build --product cardwallet, with -c release for the record) or pass --cardwallet PATH"
        )
    }

    /// ``baselineCardwallet``, once it is known to be there; `nil` when none was given.
    ///
    /// - Throws: ``BenchError`` when the path given is no executable.
    func baseline() throws -> String? {
        try baselineCardwallet.map { try Self.executable($0, else: " (--baseline-cardwallet)") }
    }

    /// `path` if it is an executable file, else an error naming it, followed by `advice`.
    private static func executable(_ path: String, else advice: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("no cardwallet executable at \(path)\(advice)")
        }
        return path
    }
}

/// One figure of the issue: measures, checks its own results are sane, and returns tables.
protocol Figure: Sendable {
    /// Runs the figure.
    ///
    /// - Throws: ``BenchError`` when something is broken (a server that will not start, a
    ///   wrong answer, a crashed child). A missed target is not an error: it prints as MISS.
    func run(_ context: BenchContext) async throws -> [ResultTable]
}

/// Something broken, as opposed to slow: the bench exits non-zero.
struct BenchError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and, where it helps, what to do.
    var description: String

    init(_ description: String) { self.description = description }
}
