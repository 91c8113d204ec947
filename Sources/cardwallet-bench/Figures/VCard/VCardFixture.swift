import CardModels
import CardVCard
import Foundation

/// The file #15 reads: N cards as CardWallet writes them (vCard 3.0), with what real address
/// books hold — names in three scripts, organisations, typed and grouped phones and emails,
/// addresses, notes with escapes, categories, a birthday without a year — and a small JPEG on
/// one card in ten.
enum VCardFixture {
    static let given = ["Ada", "Grace", "Alan", "민지", "Jürgen", "Zoë", "Katherine", "서준", "Mary", "Linus"]
    static let family = [
        "Lovelace", "Hopper", "Turing", "김", "Müller", "O'Brien", "Johnson", "박", "Jackson", "Torvalds",
    ]
    /// A 633-byte JPEG: the size of a contact thumbnail.
    static let photo = VCardPhoto(
        bytes: [0xFF, 0xD8, 0xFF, 0xE0] + (0..<629).map { UInt8(truncatingIfNeeded: $0 &* 31) }, format: .jpeg)

    /// Card `index` of the fixture.
    static func card(_ index: Int) -> Card {
        let first = given[index % given.count]
        let last = family[(index / given.count) % family.count]
        let name = first + " " + last + " \(index)"
        var fields = CardFields(
            name: name, title: ["Engineer", "Designer", "책임연구원", "Geschäftsführer"][index % 4],
            company: "Company \(index % 97), Ltd", department: index % 3 == 0 ? "Research; Lab \(index % 7)" : nil,
            email: "person\(index)@example.com", phone: "+1 555 \(1000 + index % 9000)",
            website: index % 2 == 0 ? "https://example.com/people/\(index)" : nil,
            address: index % 4 == 0 ? "\(index) Main Street, Springfield, IL 62701, USA" : nil,
            bio: index % 5 == 0 ? "Met at the conference, \(index % 28 + 1) May.\nLikes tea; dislikes meetings." : nil,
            birthday: index % 6 == 0 ? "19\(50 + index % 50)-0\(1 + index % 9)-1\(index % 9)" : nil,
            tags: index % 2 == 0 ? ["work", "conference-\(index % 5)"] : [])
        fields.vcardProperties = [
            "item1.EMAIL;X-CARDWALLET-FIELD=email;TYPE=INTERNET,pref:person\(index)@example.com",
            "item1.X-ABLabel:_$!<Work>!$_",
            "TEL;TYPE=CELL:+1 555 \(2000 + index % 8000)",
            "BDAY:--0\(1 + index % 9)-2\(index % 9)",
            "X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/person\(index)",
        ]
        let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        return Card(id: "card_\(index)", fields: fields, createdAt: date, updatedAt: date)
    }

    /// Writes an N-card file at `path`, a card at a time.
    static func write(cards count: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw BenchError("cannot create \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchError("cannot write \(path)") }
        defer { try? handle.close() }
        let writer = VCardWriter()
        var buffer: [UInt8] = []
        for index in 0..<count {
            writer.append(card(index), photo: index % 10 == 0 ? photo : nil, to: &buffer)
            if buffer.count > 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
    }
}
