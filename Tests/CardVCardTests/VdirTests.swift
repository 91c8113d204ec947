import CardModels
import CardVCard
import Foundation
import Testing

/// The vdir: one UID.vcf per card, atomic, untouched when unchanged, ours removed only.
@Suite struct VdirTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func entry(_ name: String, id: String, uid: String? = nil) -> VdirWriter.Entry {
        var fields = CardFields(name: name)
        if let uid { fields.vcardProperties = ["UID:" + uid] }
        let card = Card.stored(fields, id: id)
        return VdirWriter.Entry(uid: VCardWriter.uid(of: card), cardID: id, bytes: VCardWriter().write(card))
    }

    @Test func writesOneFilePerCardAndLeavesUnchangedOnesAlone() throws {
        let url = try Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        let folder = url.appendingPathComponent("contacts")
        let entries = [
            Self.entry("Ada", id: "c1"), Self.entry("Grace", id: "c2", uid: "urn:uuid:1f0e"),
            Self.entry("Alan", id: "c3", uid: "x/y"), Self.entry("Mary", id: "c4", uid: "mary@example.com"),
        ]
        let first = try VdirWriter.sync(entries, into: folder, removeStale: true)
        // A UID with characters a file name should not have gives way to the card id.
        #expect(
            first.written == ["cardwallet-c1.vcf", "cardwallet-c2.vcf", "cardwallet-c3.vcf", "mary@example.com.vcf"])
        let path = folder.appendingPathComponent("cardwallet-c1.vcf").path
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        let second = try VdirWriter.sync(entries, into: folder, removeStale: true)
        #expect(second.written == [] && second.unchanged.count == 4)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.modificationDate] as? Date == old)
    }

    @Test func safeUIDsAreFileNames() {
        #expect(
            VdirWriter.fileName(uid: "4fbe8971-0bc3-424c@example.com", cardID: "c")
                == "4fbe8971-0bc3-424c@example.com.vcf")
        #expect(VdirWriter.fileName(uid: "urn:uuid:1", cardID: "c9") == "cardwallet-c9.vcf")
        #expect(VdirWriter.fileName(uid: "../../etc/passwd", cardID: "c9") == "cardwallet-c9.vcf")
        #expect(VdirWriter.fileName(uid: ".hidden", cardID: "c9") == "cardwallet-c9.vcf")
        #expect(VdirWriter.fileName(uid: "", cardID: "c/9") == "cardwallet-c9.vcf")
    }

    @Test func removesOnlyItsOwnFilesOfCardsThatAreGone() throws {
        let url = try Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try VdirWriter.sync(
            [Self.entry("Ada", id: "c1"), Self.entry("Grace", id: "c2")], into: url, removeStale: true)
        let foreign = url.appendingPathComponent("someone-else.vcf")
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//EN\r\nFN:Other\r\nEND:VCARD\r\n".utf8).write(
            to: foreign)
        let notes = url.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: notes)
        // A subset (export of some ids) removes nothing.
        let subset = try VdirWriter.sync([Self.entry("Ada", id: "c1")], into: url, removeStale: false)
        #expect(subset.removed == [])
        let report = try VdirWriter.sync([Self.entry("Ada", id: "c1")], into: url, removeStale: true)
        #expect(report.removed == ["cardwallet-c2.vcf"])
        #expect(report.foreign == ["someone-else.vcf"])
        #expect(
            FileManager.default.fileExists(atPath: foreign.path) && FileManager.default.fileExists(atPath: notes.path))
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("cardwallet-c2.vcf").path))
    }

    @Test func twoCardsWithOneUIDGetTwoFiles() throws {
        let url = try Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        let report = try VdirWriter.sync(
            [Self.entry("A", id: "c1", uid: "same"), Self.entry("B", id: "c2", uid: "same")], into: url,
            removeStale: true)
        #expect(report.written == ["same.vcf", "cardwallet-c2.vcf"])
    }

    @Test func aFolderThatCannotBeMadeIsOneSentence() throws {
        let url = try Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = url.appendingPathComponent("plain")
        try Data().write(to: file)
        #expect(throws: VdirWriter.Failure.self) {
            try VdirWriter.sync(
                [Self.entry("A", id: "c1")], into: file.appendingPathComponent("sub"), removeStale: true)
        }
    }
}
