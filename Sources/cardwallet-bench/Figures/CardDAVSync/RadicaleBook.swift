import Foundation

/// A Radicale address book filled straight on disk, and the server that serves it.
///
/// The cards are written into Radicale's multifilesystem storage before the server starts —
/// `collections/collection-root/<user>/<book>/<name>.vcf` beside the collection's
/// `.Radicale.props` (`"tag": "VADDRESSBOOK"`), which is what `scripts/carddav-server.py`'s
/// MKCOL leaves — so 20,000 cards take a second, not 20,000 `PUT`s. The script's MKCOL then
/// finds the book there (405) and leaves it alone.
struct RadicaleBook: Sendable {
    static let user = "alice"
    static let password = "secret"
    static let bookName = "contacts"

    /// The server's data folder (`--data`).
    let data: String
    /// How many cards it holds.
    let cards: Int
    /// How many of them carry a photo.
    let photos: Int
    /// The bytes of every `.vcf` written.
    let bytes: Int

    /// The book's folder in the storage.
    var folder: String { Self.folder(data: data) }

    static func folder(data: String) -> String {
        data + "/collections/collection-root/\(user)/\(bookName)"
    }

    /// The book's path on the server.
    static var bookPath: String { "/\(user)/\(bookName)/" }

    /// Writes `cards` vCards (one in five with a ~15 kB JPEG) into a new storage under `data`.
    ///
    /// - Throws: ``BenchError`` when a file cannot be written.
    static func fill(data: String, cards: Int, seed: UInt64) throws -> RadicaleBook {
        let folder = folder(data: data)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(#"{"D:displayname": "Contacts", "tag": "VADDRESSBOOK"}"#.utf8).write(
                to: URL(fileURLWithPath: folder + "/.Radicale.props"))
        } catch {
            throw BenchError("cannot make the Radicale storage at \(folder): \(error.localizedDescription)")
        }
        var bytes = 0
        var photos = 0
        for index in 0..<cards {
            let text = vcard(index, seed: seed)
            if index % 5 == 0 { photos += 1 }
            let data = Data(text.utf8)
            bytes += data.count
            do {
                try data.write(to: URL(fileURLWithPath: folder + "/" + name(index) + ".vcf"))
            } catch {
                throw BenchError("cannot write card \(index) into \(folder): \(error.localizedDescription)")
            }
        }
        return RadicaleBook(data: data, cards: cards, photos: photos, bytes: bytes)
    }

    /// The resource name (and UID) of card `index`.
    static func name(_ index: Int) -> String {
        "card-" + String(format: "%06d", index)
    }

    /// Card `index` as vCard 3.0 text; `edition` > 0 gives a changed version of it.
    static func vcard(_ index: Int, seed: UInt64, edition: Int = 0) -> String {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let first = firstNames[Int(random.next() % UInt64(firstNames.count))]
        let last = lastNames[Int(random.next() % UInt64(lastNames.count))]
        let company = companies[Int(random.next() % UInt64(companies.count))]
        let title = titles[Int(random.next() % UInt64(titles.count))]
        let phone = 1_000_000 + Int(random.next() % 8_999_999)
        var lines = [
            "BEGIN:VCARD",
            "VERSION:3.0",
            "UID:\(name(index))",
            "FN:\(first) \(last)",
            "N:\(last);\(first);;;",
            "ORG:\(company)",
            "TITLE:\(edition == 0 ? title : title + " (\(edition))")",
            "EMAIL;TYPE=INTERNET,WORK:\(first.lowercased()).\(last.lowercased())\(index)@example.com",
            "TEL;TYPE=CELL:+1 555 \(phone)",
            "ADR;TYPE=WORK:;;\(index) Main Street;Springfield;;\(10_000 + index % 90_000);USA",
            "NOTE:Met at the conference\\, row \(index % 40).",
            "REV:2026-11-0\(1 + index % 9)T10:00:00Z",
        ]
        if index % 5 == 0 {
            lines.append(contentsOf: folded("PHOTO;ENCODING=b;TYPE=JPEG:" + photo(&random).base64EncodedString()))
        }
        lines.append("END:VCARD")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A 15,000-byte JPEG-looking picture (SOI, APP0/JFIF, seeded bytes, EOI): the cards'
    /// photos are opaque bytes to everyone here, so only their size and start matter.
    static func photo(_ random: inout SplitMix64) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00]
        bytes.reserveCapacity(15_000)
        while bytes.count < 14_998 {
            var word = random.next()
            for _ in 0..<8 where bytes.count < 14_998 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        bytes.append(contentsOf: [0xFF, 0xD9])
        return Data(bytes)
    }

    /// `line` folded at 75 octets, as vCard writes long lines.
    static func folded(_ line: String) -> [String] {
        let utf8 = Array(line.utf8)
        var lines: [String] = []
        var start = 0
        while start < utf8.count {
            let width = start == 0 ? 75 : 74
            let end = min(start + width, utf8.count)
            lines.append((start == 0 ? "" : " ") + String(decoding: utf8[start..<end], as: UTF8.self))
            start = end
        }
        return lines
    }

    static let firstNames = [
        "Ada", "Alan", "Grace", "Katherine", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Frances",
        "John", "Radia", "Tim", "Shafi", "Ken", "Hedy", "Niklaus", "Adele", "Leslie", "Sophie",
    ]
    static let lastNames = [
        "Lovelace", "Turing", "Hopper", "Johnson", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Ritchie", "Allen",
        "Backus", "Perlman", "Berners-Lee", "Goldwasser", "Thompson", "Lamarr", "Wirth", "Goldberg", "Lamport",
        "Wilson",
    ]
    static let companies = [
        "Analytical Engines", "NPL", "US Navy", "NASA", "Mathematisch Centrum", "MIT", "Stanford", "Bell Labs",
        "IBM", "DEC", "CERN", "Xerox PARC",
    ]
    static let titles = ["Engineer", "Researcher", "Director", "Mathematician", "Architect", "Fellow"]
}

/// `scripts/carddav-server.py radicale` on a data folder: started, its root URL read from its
/// first line, stopped by closing its standard input.
final class RadicaleServer: @unchecked Sendable {
    /// The server's root, e.g. `http://127.0.0.1:40123/`.
    let root: URL
    private let process: Process
    private let input: Pipe

    /// The book's URL.
    var bookURL: URL { URL(string: RadicaleBook.bookPath, relativeTo: root)!.absoluteURL }

    /// Starts Radicale on `data` (the user and its book made if missing), and waits for its URL.
    ///
    /// - Throws: ``BenchError`` when the script is missing or the server says no URL.
    init(data: String) throws {
        let script = try Self.script()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script, "radicale", "--data", data, "--user", "\(RadicaleBook.user):\(RadicaleBook.password)",
            "--book", RadicaleBook.bookName,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: data + "/server.log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: data + "/server.log")
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(script): \(error.localizedDescription)")
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard text.hasPrefix("http://"), let root = URL(string: text) else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: data + "/server.log", encoding: .utf8)) ?? ""
            throw BenchError(
                "Radicale did not start (said \(text.debugDescription)): \(log.suffix(400)) (pip install -r scripts/requirements-carddav.txt)"
            )
        }
        self.root = root
        self.process = process
        self.input = input
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// `scripts/carddav-server.py`: in the current folder (the bench runs from the package's
    /// root), else next to the package the bench was built in.
    static func script() throws -> String {
        let relative = "scripts/carddav-server.py"
        let candidates = [
            FileManager.default.currentDirectoryPath + "/" + relative,
            URL(fileURLWithPath: RunCommand.ownExecutable()).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(relative).path,
        ]
        guard let found = candidates.first(where: FileManager.default.fileExists) else {
            throw BenchError("cannot find \(relative): run the bench from the package's root")
        }
        return found
    }
}
