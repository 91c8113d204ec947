import ArgumentParser
import CardCache
import CardWalletLive
import Foundation
import Networking

/// `cardwallet-bench carddav-probe --server URL --folder DIR --cards N` (hidden): logs in to the
/// Radicale book at URL, makes a wallet with an empty cache in DIR and syncs it once, as the
/// app's first sync does, then prints one JSON line with its memory: the peak must not grow
/// with the book.
struct CardDAVProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carddav-probe",
        abstract: "One first sync of a CardDAV book into an empty cache (run by the bench itself).",
        shouldDisplay: false)

    @Option(help: "The server's root URL.")
    var server: String

    @Option(help: "A folder for the token file and the cache.")
    var folder: String

    @Option(help: "How many cards the book holds.")
    var cards: Int

    func run() async throws {
        guard let root = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        let before = try ProcessMemory.current()
        let result: CardDAVProbeResult
        do {
            result = try await LiveTransport.withTransport(configuration: OursSide.transportConfiguration()) {
                transport in
                let ours = OursSide(root: root, transport: transport, recorder: RequestRecorder(), expected: cards)
                let wallet = try await ours.wallet(in: folder)
                let (seconds, requests) = try await ours.sync(wallet)
                wallet.cache?.close()
                return CardDAVProbeResult(
                    cards: cards, requests: requests, seconds: seconds, baselineBytes: before.residentBytes,
                    peakResidentBytes: try ProcessMemory.current().peakResidentBytes)
            }
        } catch {
            // On standard output, the one stream the bench reads: it says why in its error.
            print("failed: \(error)")
            throw ExitCode.failure
        }
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}

/// What one probe prints.
struct CardDAVProbeResult: Codable, Sendable {
    /// Cards the sync listed.
    var cards: Int
    /// Requests it sent.
    var requests: Int
    /// Its wall time.
    var seconds: Double
    /// `VmRSS` before the sync.
    var baselineBytes: Int
    /// `VmHWM` after it: the peak.
    var peakResidentBytes: Int
}
