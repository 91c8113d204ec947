public import Foundation

/// Writes cards into a vdir, the folder layout khard and vdirsyncer read: one `UID.vcf` per
/// card (<https://vdirsyncer.pimutils.org/en/stable/vdir.html>).
///
/// A file whose bytes would not change is left alone (same bytes, same modification time), so
/// that a sync tool sees only real changes; others are replaced atomically (a temporary file
/// renamed over the old one). Files of cards that are gone are removed only when CardWallet
/// wrote them (their `PRODID` is ours); anything else in the folder is never touched.
public struct VdirWriter: Sendable {
    /// One card to write.
    public struct Entry: Sendable, Hashable {
        /// Its UID (the file name when it is a safe one).
        public var uid: String
        /// Its card id (the file name when the UID is not safe or already taken).
        public var cardID: String
        /// The vCard bytes.
        public var bytes: [UInt8]

        /// An entry.
        public init(uid: String, cardID: String, bytes: [UInt8]) {
            self.uid = uid
            self.cardID = cardID
            self.bytes = bytes
        }
    }

    /// What a sync did, by file name.
    public struct Report: Sendable, Equatable {
        /// Files written (new or changed).
        public var written: [String] = []
        /// Files left as they were.
        public var unchanged: [String] = []
        /// Files of ours removed (their card is gone).
        public var removed: [String] = []
        /// `.vcf` files not written by CardWallet, left alone.
        public var foreign: [String] = []
    }

    /// Why a sync failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One sentence.
        public var description: String
    }

    /// The folder.
    public let directory: URL
    /// What was done so far.
    public private(set) var report = Report()
    private var names = Set<String>()

    /// A writer into `directory`, created when missing.
    ///
    /// - Throws: ``Failure`` when the folder cannot be made.
    public init(directory: URL) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the folder \(directory.path): \(Self.reason(error))")
        }
    }

    /// Writes `entries`; with `removeStale`, removes our files of cards not among them.
    ///
    /// - Throws: ``Failure`` when the folder cannot be made or a file cannot be written; the
    ///   files already written stay (each one is whole).
    public static func sync(_ entries: [Entry], into directory: URL, removeStale: Bool) throws -> Report {
        var writer = try VdirWriter(directory: directory)
        for entry in entries { try writer.write(entry) }
        return try writer.finish(removeStale: removeStale)
    }

    /// Writes one card's file (unless it already holds these bytes).
    ///
    /// - Returns: the file name.
    /// - Throws: ``Failure`` when the file cannot be written.
    @discardableResult
    public mutating func write(_ entry: Entry) throws -> String {
        var name = Self.fileName(uid: entry.uid, cardID: entry.cardID)
        if names.contains(name) { name = Self.fileName(uid: "", cardID: entry.cardID) }
        names.insert(name)
        let url = directory.appendingPathComponent(name)
        if let current = FileManager.default.contents(atPath: url.path), current.elementsEqual(entry.bytes) {
            report.unchanged.append(name)
            return name
        }
        do {
            try Data(entry.bytes).write(to: url, options: .atomic)
        } catch {
            throw Failure(description: "cannot write \(url.path): \(Self.reason(error))")
        }
        report.written.append(name)
        return name
    }

    /// Ends the sync: with `removeStale`, removes our files not written in it.
    ///
    /// - Returns: what was done.
    /// - Throws: ``Failure`` when a file cannot be removed.
    public mutating func finish(removeStale: Bool) throws -> Report {
        guard removeStale else { return report }
        let manager = FileManager.default
        let present = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in present.sorted() where name.hasSuffix(".vcf") && !names.contains(name) {
            let url = directory.appendingPathComponent(name)
            guard let data = manager.contents(atPath: url.path), Self.isOurs(data) else {
                report.foreign.append(name)
                continue
            }
            do {
                try manager.removeItem(at: url)
                report.removed.append(name)
            } catch {
                throw Failure(description: "cannot remove \(url.path): \(Self.reason(error))")
            }
        }
        return report
    }

    /// `UID.vcf` when the UID is made of letters, digits and `-_.@+=` (and does not start with a
    /// dot), as vdirsyncer does; else `cardwallet-<card id>.vcf`.
    public static func fileName(uid: String, cardID: String) -> String {
        let safe =
            !uid.isEmpty && uid.count <= 200 && !uid.hasPrefix(".")
            && uid.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.@+=".unicodeScalars.contains($0))
            }
        return
            (safe
            ? uid : WalletProperty.uidPrefix + cardID.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            + ".vcf"
    }

    /// Whether a file carries CardWallet's `PRODID` line.
    static func isOurs(_ data: Data) -> Bool {
        let marker = Array(("PRODID:" + WalletProperty.productID).utf8)
        let bytes = [UInt8](data.prefix(1 << 20))
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 10 || bytes[index] == 13 {
            if index - start == marker.count, bytes[start..<index].elementsEqual(marker) { return true }
            start = index + 1
        }
        return false
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
