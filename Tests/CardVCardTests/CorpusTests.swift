import CardModels
import CardVCard
import Foundation
import Testing

/// Each file of the corpus imports with the right fields, keeps what the card does not model,
/// and carries its photo byte for byte.
@Suite struct CorpusTests {
    @Test func androidQuotedPrintableKorean() throws {
        let document = try Fixture.document("android-21-korean.vcf")
        #expect(document.problems.isEmpty && document.refusal == nil)
        #expect(document.cards.map(\.fields.name) == ["이지수", "박서준"])
        let card = document.cards[0]
        #expect(card.fields.company == "한빛전자")
        #expect(card.fields.department == "연구개발부")
        #expect(card.fields.title == "책임연구원")
        #expect(card.fields.phone == "010-2345-6789")
        #expect(card.fields.email == "jisoo@example.kr")
        #expect(card.fields.bio == "안녕하세요. 긴 메모는 여러 줄에 걸쳐 인코딩됩니다.\n두 번째 줄입니다.")
        #expect(card.photo == VCardPhoto(bytes: try Fixture.bytes("photo-jisoo.jpg"), format: .jpeg))
        #expect(card.line == 1)
        // The preferred phone is the card's phone; the work phone and fax are kept, and so is
        // the EUC-KR nickname, as UTF-8.
        #expect(
            card.fields.vcardProperties == [
                "EMAIL;X-CARDWALLET-FIELD=email;TYPE=HOME:jisoo@example.kr",
                "TEL;X-CARDWALLET-FIELD=phone;TYPE=CELL,PREF:010-2345-6789",
                "N;X-CARDWALLET-NAME=이지수:이;지수;;;",
                "TEL;TYPE=WORK:02-555-0199",
                "TEL;TYPE=FAX:02-555-0198",
                "NICKNAME:지수",
                "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;지수;1;;;;;;;;;;;;;",
            ])
    }

    @Test func outlookWindows1252WithAFaxAndItsDesign() throws {
        let card = try Fixture.single("outlook-21-cp1252.vcf")
        #expect(card.fields.name == "Jürgen Müller")
        #expect(card.fields.company == "Brötchen & Söhne GmbH")
        #expect(card.fields.department == "Vertrieb")
        #expect(card.fields.title == "Geschäftsführer")
        #expect(card.fields.phone == "+49 30 1234567")
        #expect(card.fields.email == "juergen.mueller@broetchen.example.de")
        #expect(card.fields.website == "http://www.broetchen.example.de")
        #expect(card.fields.address == "Hauptstraße 5, Berlin, 10115, Deutschland")
        #expect(card.fields.bio == "Bitte nur vormittags anrufen. Grüße aus Berlin – Jürgen")
        let kept = card.fields.vcardProperties
        #expect(kept.contains("TEL;TYPE=WORK,FAX:+49 30 1234568"))
        #expect(kept.contains("TEL;TYPE=CELL,VOICE:+49 171 2345678"))
        #expect(kept.contains("LABEL;TYPE=WORK,PREF:Hauptstraße 5\\nBerlin 10115\\nDeutschland"))
        let design = try #require(kept.first { $0.hasPrefix("X-MS-OL-DESIGN:") })
        #expect(design.hasSuffix("<fld xmlns=\"\" prop=\"blank\" size=\"8\"/></card>"))
        // REV describes the file, not the person: the writer makes its own.
        #expect(!kept.contains { $0.hasPrefix("REV") })
    }

    @Test func iosGroupedWithAFoldedPhoto() throws {
        let card = try Fixture.single("ios-30-grouped.vcf")
        #expect(card.fields.name == "Ada Lovelace")
        #expect(card.fields.company == "Analytical Engines Ltd")
        #expect(card.fields.department == "Research")
        #expect(card.fields.email == "ada@example.com")
        #expect(card.fields.phone == "+44 20 7946 0000")
        #expect(card.fields.website == "https://ada.example.com")
        #expect(card.fields.address == "12 St James's Square, London, SW1Y 4JH, United Kingdom")
        #expect(card.fields.birthday == "1815-12-10")
        #expect(card.fields.bio == "First to publish an algorithm\nfor a machine, in 1843.")
        #expect(card.photo == VCardPhoto(bytes: try Fixture.bytes("photo-ada.jpg"), format: .jpeg))
        let kept = card.fields.vcardProperties
        // The grouped email keeps its group, so its label still belongs to it on export.
        #expect(kept.contains("item1.EMAIL;X-CARDWALLET-FIELD=email;TYPE=INTERNET,pref:ada@example.com"))
        #expect(kept.contains("item1.X-ABLabel:_$!<Other>!$_"))
        #expect(kept.contains("item2.TEL:+44 20 7946 0001"))
        #expect(kept.contains("EMAIL;TYPE=INTERNET,WORK:ada.work@example.com"))
        #expect(kept.contains("X-SOCIALPROFILE;TYPE=twitter:x-apple:adalovelace"))
        #expect(kept.contains("N;X-CARDWALLET-NAME=Ada Lovelace:Lovelace;Ada;;Countess;"))
        #expect(!kept.contains { $0.hasPrefix("PRODID") })
    }

    @Test func googleMultiCardWithCategoriesAndAYearlessBirthday() throws {
        let document = try Fixture.document("google-30-multi.vcf")
        #expect(document.problems.isEmpty)
        #expect(document.cards.map(\.fields.name) == ["Grace Hopper", "Alan Turing", "Margaret Hamilton"])
        #expect(document.cards.map(\.line) == [1, 15, 27])
        let grace = document.cards[0]
        #expect(grace.fields.tags == ["myContacts", "Pioneers"])
        #expect(grace.fields.birthday == nil)
        #expect(grace.fields.vcardProperties.contains("BDAY:--12-09"))
        // Google escapes the colon of a URL.
        #expect(grace.fields.website == "https://grace.example.org")
        #expect(grace.fields.bio == "Found the first bug, literally.")
        #expect(grace.fields.address == "1 Navy Way, Arlington, VA 22202, US")
        let alan = document.cards[1]
        #expect(alan.fields.birthday == "1912-06-23")
        #expect(alan.fields.tags == ["myContacts", "Pioneers", "Cryptography"])
        #expect(alan.fields.website == "https://turing.example.org/papers")
        #expect(alan.fields.email == "alan@example.co.uk")
        #expect(document.cards[2].fields.department == "Software Engineering Division")
    }

    @Test func vCard4WithADataPhotoAndLineFeeds() throws {
        let card = try Fixture.single("v40-data-photo-lf.vcf")
        #expect(card.fields.name == "김민지")
        // PREF=1 wins over the first one.
        #expect(card.fields.email == "minji@example.kr")
        #expect(card.fields.phone == "+82-10-1234-5678")
        #expect(card.fields.birthday == "1992-03-15")
        #expect(card.fields.company == "카드월렛")
        #expect(card.fields.address == "세종대로 110, 중구, 서울특별시 04524, 대한민국")
        #expect(card.photo == VCardPhoto(bytes: try Fixture.bytes("photo-minji.png"), format: .png))
        #expect(card.uid == "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
        let kept = card.fields.vcardProperties
        #expect(kept.contains("UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1"))
        #expect(kept.contains("TEL;VALUE=uri;TYPE=work:tel:+82-2-555-0100;ext=12"))
        #expect(kept.contains("ANNIVERSARY:20200601"))
        #expect(
            kept.contains(
                "ADR;X-CARDWALLET-FIELD=address;TYPE=work;LABEL=세종대로 110^n서울특별시 중구 04524:;;세종대로 110;중구;서울특별시;04524;대한민국"
            ))
    }

    @Test func oneBrokenCardIsSkippedAtItsLine() throws {
        let document = try Fixture.document("one-broken.vcf")
        #expect(document.cards.map(\.fields.name) == ["Katherine Johnson", "Mary Jackson"])
        #expect(
            document.problems.map { $0.formatted(file: "one-broken.vcf") } == [
                "one-broken.vcf:6: the card has no name (no FN, no N), nor an organisation, email or phone number to name it by"
            ])
    }

    @Test func everyImportedCardIsOneTheServerAccepts() throws {
        for name in [
            "android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "google-30-multi.vcf",
            "v40-data-photo-lf.vcf",
        ] {
            for card in try Fixture.document(name).cards {
                #expect(card.fields.validate() == [:], "\(name): \(card.fields.name)")
                #expect(card.fields == card.fields.normalized())
            }
        }
    }
}
