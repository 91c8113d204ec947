import Foundation

/// Cards rendered by `scripts/make-scan-cards.py` into a temporary folder, with their truth.
struct GeneratedCards: Sendable {
    /// One card: its photo and the fields printed on it.
    struct Card: Sendable, Decodable {
        var file: String
        var fields: [String: String]
        var lang: String
        var layout: String
        /// What its domain ends in (`.law`, `.co.jp`), drawn from the Public Suffix List.
        var ending: String?
    }

    private struct Truth: Decodable {
        var seed: Int
        var cards: [Card]
    }

    /// The folder holding the photos and `truth.json`.
    var folder: URL
    /// The cards, in order.
    var cards: [Card]

    /// The repository's root, from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Renders `count` cards with the script's committed seed (the same cards on every machine
    /// with the pinned Pillow and the Debian fonts).
    static func make(count: Int, extraArguments: [String] = []) throws -> GeneratedCards {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-\(UUID().uuidString)")
        try run(
            [
                "python3", repository.appendingPathComponent("scripts/make-scan-cards.py").path, "--out", folder.path,
                "--count", String(count),
            ] + extraArguments)
        let truth = try JSONDecoder().decode(
            Truth.self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        return GeneratedCards(folder: folder, cards: truth.cards)
    }

    /// The photo of `card`.
    func url(of card: Card) -> URL { folder.appendingPathComponent(card.file) }

    /// Runs a command (found on PATH), failing with its standard error when it fails.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GenerationFailure(
                command: arguments.joined(separator: " "), status: process.terminationStatus,
                message: String(decoding: message, as: UTF8.self))
        }
    }

    /// Writes a photo with Pillow from a line of Python that has `Image` and `path` at hand.
    static func pillow(_ statement: String, to path: URL) throws {
        try run(["python3", "-c", "import sys\nfrom PIL import Image\npath = sys.argv[1]\n" + statement, path.path])
    }
}

/// The generator or Pillow failed (is python3 with Pillow installed? scripts/bootstrap installs it).
struct GenerationFailure: Error, CustomStringConvertible {
    var command: String
    var status: Int32
    var message: String

    var description: String { "\(command) exited \(status): \(message)" }
}
