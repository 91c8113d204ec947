import ArgumentParser
import CardBackend
import CardModels
import CardScan
import CardScanCore
import CardWalletLive
import Foundation
import Networking

/// `cardwallet scan PHOTO…`: reads photos of paper business cards into card fields, and with
/// `--add` adds them to the wallet.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read photos of paper business cards into cards.",
        discussion: """
            Reads each photo (PNG or JPEG, turned upright as its EXIF orientation says) with \
            Tesseract and finds the card's fields: name, title, company, department, email, \
            phone, website, address. Prints them one per line, then what it was unsure of \
            (guesses, low-confidence readings, values left out). Nothing is sent anywhere \
            unless --add is given.

            --json prints one line of JSON per photo with the card's field names (absent fields \
            left out); the notes go to standard error. --add adds one card per photo, with the \
            photo as its image (an upright JPEG copy when the photo is stored sideways or is \
            larger than 2 MiB), and prints each photo's fields with `Added as ID.` (with --json: \
            each new card as one line of the API's JSON). Every \
            photo is scanned before anything is added: if one cannot be read, or has no name, \
            nothing is added.

            --lang names Tesseract's languages, the first one leading: kor+eng (the default) \
            reads English and Korean cards; eng alone is faster but reads no Korean. Any \
            language with a tesseract-ocr-<code> package installed can be named.

            Examples:
              cardwallet scan card.jpg
              cardwallet scan ~/Photos/conference/*.jpg --json > cards.jsonl
              cardwallet scan card.jpg --add
              cardwallet scan card.png --lang eng --time-limit 5

            Exit status: 0 read (and added); 1 a photo could not be read (not a PNG or JPEG, \
            no text found, time limit) or had no name to add a card under; 3 log in first; \
            6 server unreachable; 64 bad options.
            """)

    @OptionGroup(title: "Server and logging options (for --add)") var client: ClientOptions

    /// The photos.
    @Argument(help: ArgumentHelp("Photos of business cards: PNG or JPEG files.", valueName: "photo"))
    var photos: [String]

    /// `--json`.
    @Flag(help: "Print one line of JSON per photo (with --add: the card added).")
    var json = false

    /// `--add`.
    @Flag(help: "Add a card for each photo, with the photo as its image.")
    var add = false

    /// `--lang`.
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp("Tesseract's languages joined with +, the first leading.", valueName: "codes"))
    var languages = OCRLanguages.standard.tesseractName

    /// `--time-limit`.
    @Option(
        name: .customLong("time-limit"),
        help: ArgumentHelp("The longest the OCR may take on one photo, in seconds.", valueName: "seconds"))
    var timeLimit: Double = ScanLimits().timeLimit

    func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("Give at least one photo of a card.") }
        do {
            _ = try OCRLanguages(parsing: languages)
        } catch {
            throw ValidationError(error.description)
        }
        guard timeLimit > 0, timeLimit <= 600 else { throw ValidationError("--time-limit must be 0–600 seconds.") }
    }

    func run() async throws {
        let scanner = CardScanner(
            languages: try OCRLanguages(parsing: languages), limits: ScanLimits(timeLimit: timeLimit))
        do {
            try scanner.prepare()
        } catch {
            Console.error(TerminalText.escaped(error.description))
            throw ExitCode(CLIExitCode.failure)
        }
        var scanned: [(photo: String, card: ScannedCard)] = []
        var failed = 0
        for (index, photo) in photos.enumerated() {
            if photos.count > 1 { Console.err("[\(index + 1)/\(photos.count)] \(TerminalText.escaped(photo))\n") }
            do {
                let card = try await scanner.scan(photoAt: URL(fileURLWithPath: photo))
                scanned.append((photo, card))
                if !add { show(card, photo: photo, first: scanned.count == 1) }
            } catch .cancelled {
                throw ExitCode(CLIExitCode.cancelled)
            } catch {
                Console.error(TerminalText.escaped(error.description))
                failed += 1
            }
        }
        guard add else {
            if failed > 0 { throw ExitCode(CLIExitCode.failure) }
            return
        }
        for (photo, card) in scanned where !card.hasName {
            Console.error(
                "No name found on \(TerminalText.escaped(photo)): a card needs one. Add it with "
                    + "cardwallet add --name NAME --image \(TerminalText.escaped(photo)).")
            failed += 1
        }
        guard failed == 0 else {
            Console.error("Nothing was added.")
            throw ExitCode(CLIExitCode.failure)
        }
        try await addCards(scanned, scanner: scanner)
    }

    /// Prints one photo's fields (a heading per photo when there are several).
    private func show(_ card: ScannedCard, photo: String, first: Bool) {
        if json {
            for note in card.notes {
                Console.err(
                    "cardwallet: \(TerminalText.escaped(photo)): unsure: \(TerminalText.escaped(note.description))\n")
            }
            guard let line = try? ScanOutput.json(card) else { return }
            Console.out(line)
            return
        }
        let heading = photos.count > 1 ? (first ? "" : "\n") + "== \(TerminalText.escaped(photo)) ==\n" : ""
        Console.out(heading + ScanOutput.text(card))
    }

    /// Adds the scanned cards, each with its photo; stops at the first failure, saying which
    /// cards were added before it.
    private func addCards(_ scanned: [(photo: String, card: ScannedCard)], scanner: CardScanner) async throws {
        let copies = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cardwallet-scan-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copies) }
        try await ClientCommandRunner.run(client) { context in
            // Every image is made ready (and checked) before the first card is added.
            var images: [ImageUpload] = []
            for (photo, _) in scanned {
                do {
                    let image = try context.checkedImage(
                        scanner.imageForUpload(
                            photoAt: URL(fileURLWithPath: photo), maximumBytes: context.backend.maximumImageBytes,
                            folder: copies
                        ).path)
                    images.append(image)
                } catch let error as CardScanError {
                    throw CommandFailure(TerminalText.escaped(error.description) + " Nothing was added.")
                }
            }
            var added: [String] = []
            let wallet = await context.wallet()
            for ((photo, card), image) in zip(scanned, images) {
                let created: Card
                do {
                    created = try await wallet.create(card.fields, image: image).value
                } catch {
                    if !added.isEmpty {
                        Console.error(
                            "added before the failure: \(added.joined(separator: ", ")); not added: the rest.")
                    }
                    throw error
                }
                added.append(created.id)
                if json {
                    Console.out(try ScanOutput.jsonLine(created))
                } else {
                    Console.out(
                        "== \(TerminalText.escaped(photo)) ==\n" + ScanOutput.text(card) + "Added as \(created.id).\n\n"
                    )
                }
            }
        }
    }
}
