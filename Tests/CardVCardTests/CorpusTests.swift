import CardModels
import CardVCard
import Foundation
import Testing

@Suite struct CorpusTests {
    @Test func dump() throws {
        for name in ["ios-30-grouped.vcf", "v40-data-photo-lf.vcf"] {
            let d = try Fixture.document(name)
            for c in d.cards {
                for v in [VCardVersion.v30, .v40] {
                    let out = VCardWriter(version: v).write(.stored(c.fields), photo: c.photo)
                    print(String(decoding: out, as: UTF8.self))
                    let back = VCardDocument.read(bytes: out)
                    print("roundtrip", v, back.cards.first?.fields == c.fields, back.cards.first?.photo == c.photo, back.problems)
                    if back.cards.first?.fields != c.fields { print(back.cards.first!.fields.vcardProperties, "\n", c.fields.vcardProperties) }
                }
            }
        }
    }
}
