import CardModels
import CardVCard
import Foundation
import Testing

/// Issue 32's corpus: files written for these tests in the shapes of the exporters whose samples
/// lost cards (an iPhone export through one more CRLF conversion, Outlook 2007, Lotus Notes,
/// Android's contacts without a name, Evolution), each card field by field. Every card comes in.
@Suite struct ExporterCorpusTests {
    /// The files, also read, written and read again by `RoundTripTests`.
    static let files = [
        "iphone-30-crcrlf.vcf", "outlook-2007-21-notes.vcf", "lotus-notes-30.vcf", "android-21-nameless.vcf",
        "evolution-30.vcf",
    ]

    static func cards(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [ImportedCard] {
        let document = try Fixture.document(name)
        #expect(document.refusal == nil && document.problems.isEmpty, sourceLocation: sourceLocation)
        #expect(document.warnings.isEmpty, "\(document.warnings)", sourceLocation: sourceLocation)
        return document.cards
    }

    @Test func iPhoneWithCrCrLfALongNoteAndAPhotoOfTensOfKilobytes() throws {
        let cards = try Self.cards("iphone-30-crcrlf.vcf")
        #expect(cards.map(\.fields.name) == ["Dr. Chidinma Adaeze Okafor PhD", "Harbour Chandlery Ltd"])
        let chi = cards[0].fields
        #expect(chi.company == "Lagos Marine Institute" && chi.department == "Coastal Ecology")
        #expect(chi.title == "Principal Investigator")
        #expect(chi.email == "chidinma.okafor@marine.example.ng")
        #expect(chi.phone == "+234 803 555 0142")
        #expect(chi.address == "14 Admiralty Way, Lekki Phase 1, Lagos, Lagos State 106104, Nigeria")
        #expect(chi.website == "https://lmi.example.ng/people/okafor")
        #expect(chi.birthday == "1984-02-29")
        #expect(chi.tags == ["Research", "Lagos", "Field school"])
        let bio = try #require(chi.bio)
        #expect(bio.count <= CardLimits.bioMaxLength && bio.hasPrefix("Met at the West African Coastal Science week"))
        #expect(bio.hasSuffix("…"))
        #expect(cards[0].photo == VCardPhoto(bytes: try Fixture.bytes("photo-okafor.jpg"), format: .jpeg))
        #expect(try Fixture.bytes("photo-okafor.jpg").count > 30_000)
        #expect(
            cards[0].warnings == [
                VCardProblem(
                    line: 28,
                    "NOTE (bio) is 2774 characters, more than the 500 the field holds: clipped, and kept whole for export"
                )
            ])
        let kept = chi.vcardProperties
        let note = try #require(kept.first { $0.hasPrefix("NOTE;X-CARDWALLET-FIELD=bio:") })
        #expect(
            note.count > 2_800 && note.hasSuffix("the draft on seasonal salinity that reviewers asked us to shorten."))
        for line in [
            "N;X-CARDWALLET-NAME=Dr. Chidinma Adaeze Okafor PhD:Okafor;Chidinma;Adaeze;Dr.;PhD", "NICKNAME:Chi",
            "item1.X-ABLabel:Institute", "EMAIL;TYPE=INTERNET,HOME:chi.okafor@mail.example.com",
            "item2.TEL:+234 1 555 0199", "item2.X-ABLabel:Lab", "item3.X-ABADR:ng",
            "item4.X-ABLabel:_$!<HomePage>!$_", "item5.X-ABRELATEDNAMES;TYPE=pref:Emeka Okafor",
            "item6.X-ABDATE;TYPE=pref:2011-06-18", "item6.X-ABLabel:_$!<Anniversary>!$_",
            "X-SOCIALPROFILE;TYPE=linkedin;X-USER=chidinma-okafor:https://www.linkedin.example/in/chidinma-okafor",
            "IMPP;X-SERVICE-TYPE=Skype;TYPE=HOME,pref:skype:chi.okafor",
        ] {
            #expect(kept.contains(line), "\(line)")
        }
        #expect(!kept.contains { $0.hasPrefix("PRODID") })
        let company = cards[1]
        #expect(company.fields.company == "Harbour Chandlery Ltd" && company.fields.phone == "+234 1 555 0177")
        #expect(company.fields.address == "3 Wharf Road, Apapa, Lagos State, Nigeria")
        #expect(company.fields.vcardProperties.contains("X-ABShowAs:COMPANY"))
        #expect(company.warnings.isEmpty && company.line == 646)
    }

    @Test func outlook2007WithAQuotedPrintableNoteAndItsXMSProperties() throws {
        let card = try #require(try Self.cards("outlook-2007-21-notes.vcf").first)
        let fields = card.fields
        #expect(fields.name == "Henrik Lindqvist")
        #expect(fields.company == "Nordvik Shipping AB" && fields.department == "Chartering")
        #expect(fields.title == "Senior Broker")
        #expect(fields.phone == "+46 31 555 01 20")
        #expect(fields.email == "henrik.lindqvist@nordvik.example.se")
        #expect(fields.website == "http://www.nordvik.example.se")
        #expect(fields.address == "Skeppsbron 3, Göteborg, 411 21, Sverige")
        let bio = try #require(fields.bio)
        // The soft breaks joined (one fell before a space), CRLF a line break, Windows-1252 read.
        #expect(
            bio.hasPrefix(
                "Met Henrik at the Gothenburg maritime fair (Svenska Mässan), stand C-114, on 2023-09-14.\nHe charters")
        )
        #expect(bio.count <= 500 && bio.hasSuffix("…"))
        #expect(card.warnings.map(\.line) == [7])
        let kept = fields.vcardProperties
        let note = try #require(kept.first { $0.hasPrefix("NOTE;X-CARDWALLET-FIELD=bio:") })
        #expect(
            note.contains("Lule\u{E5} – Rotterdam") && note.hasSuffix("bring the fuel consumption data he asked about.")
        )
        #expect(kept.contains("N;X-CARDWALLET-NAME=Henrik Lindqvist;LANGUAGE=sv:Lindqvist;Henrik"))
        #expect(kept.contains("TEL;TYPE=WORK,FAX:+46 31 555 01 29"))
        #expect(kept.contains("LABEL;TYPE=WORK,PREF:Skeppsbron 3\\nGöteborg 411 21\\nSverige"))
        for line in [
            "X-MS-OL-DEFAULT-POSTAL-ADDRESS:2", "X-MS-IMADDRESS:henrik.l@im.example.se",
            "X-MS-TEL;TYPE=VOICE,COMPANY:+46 31 555 01 00", "X-MS-MANAGER:Astrid Berg", "X-MS-ASSISTANT:Jonas Ek",
            "X-MS-SPOUSE:Karin Lindqvist", "X-MS-ANNIVERSARY:20050812",
        ] {
            #expect(kept.contains(line), "\(line)")
        }
        let design = try #require(kept.first { $0.hasPrefix("X-MS-OL-DESIGN:") })
        #expect(design.count > 1_000 && design.hasSuffix("<fld xmlns=\"\" prop=\"blank\" size=\"8\"/></card>"))
        #expect(!kept.contains { $0.hasPrefix("REV") })
    }

    @Test func lotusNotesWithManyCategoriesAndAHierarchicalName() throws {
        let cards = try Self.cards("lotus-notes-30.vcf")
        let marguerite = cards[0]
        #expect(marguerite.fields.name == "Marguerite Dubois")
        #expect(marguerite.fields.company == "Vaillant Conseil" && marguerite.fields.department == "Audit")
        #expect(marguerite.fields.title == "Associée")
        #expect(marguerite.fields.email == "marguerite.dubois@vaillant.example.fr")
        #expect(marguerite.fields.phone == "+33 1 55 55 01 30")
        #expect(marguerite.fields.address == "12 rue de la Paix, Paris, Île-de-France 75002, France")
        #expect(marguerite.fields.bio == "Assistante : Claire Martin, poste 0142. Préfère les rendez-vous le matin.")
        #expect(
            marguerite.fields.tags == [
                "Clients", "Paris", "Audit", "Banque", "Assurance", "Industrie", "Public", "Conférences", "Formation",
                "Partenaires",
            ])
        #expect(
            marguerite.warnings.map(\.message) == [
                "CATEGORIES (tags) holds 12 entries, more than the 10 the field holds: clipped, and kept whole for export"
            ])
        let kept = marguerite.fields.vcardProperties
        #expect(
            kept.contains { $0.hasPrefix("CATEGORIES;X-CARDWALLET-FIELD=tags:") && $0.hasSuffix(",Presse,Anciens") })
        for line in [
            "X-LOTUS-CHILD:Léa", "X-LOTUS-CHILD:Hugo", "X-LOTUS-SPOUSE:Pierre Dubois",
            "X-LOTUS-ASSISTANT:Claire Martin",
            "X-LOTUS-NOTESDOMAIN:VAILLANT", "X-LOTUS-SHORTNAME:mdubois", "X-LOTUS-CHARSET:UTF-8",
            "EMAIL;TYPE=INTERNET,HOME:m.dubois@maison.example.fr", "TEL;TYPE=CELL:+33 6 55 55 01 31",
        ] {
            #expect(kept.contains(line), "\(line)")
        }
        let long = cards[1]
        let fullName =
            "CN=Jean-Baptiste Marie-Christophe de La Rochefoucauld-Liancourt/OU=Direction Générale/O=Vaillant/C=FR"
        #expect(long.fields.name == String(fullName.prefix(63)) + "…")
        #expect(long.fields.vcardProperties.contains("FN;X-CARDWALLET-FIELD=name:\(fullName)"))
        #expect(
            long.warnings.map(\.message) == [
                "FN (name) is 101 characters, more than the 64 the field holds: clipped, and kept whole for export"
            ])
    }

    @Test func androidQuotedPrintableNamesAndContactsWithoutAName() throws {
        let cards = try Self.cards("android-21-nameless.vcf")
        #expect(
            cards.map(\.fields.name) == [
                "Анна Сергеевна Кузнецова", "+7 912 555-01-77", "dacha.market@example.ru", "Автосервис «Колесо»",
            ])
        let anna = cards[0].fields
        #expect(anna.phone == "+7 912 555-01-40" && anna.email == "anna.kuznetsova@example.ru")
        #expect(anna.bio == "Соседка по даче. Помогает с рассадой весной; любит чай с чабрецом.")
        #expect(
            anna.vcardProperties.contains("N;X-CARDWALLET-NAME=Анна Сергеевна Кузнецова:Кузнецова;Анна;Сергеевна;;"))
        #expect(anna.vcardProperties.contains("X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Аня;1;;;;;;;;;;;;;"))
        #expect(cards[0].warnings.isEmpty)
        // One report line for each contact named by the import, at its BEGIN:VCARD.
        #expect(
            cards.dropFirst().flatMap(\.warnings).map(\.description) == [
                "line 20: the card has no name (no FN, no N): it is named “+7 912 555-01-77” after its phone number",
                "line 25: the card has no name (no FN, no N): it is named “dacha.market@example.ru” after its email address",
                "line 29: the card has no name (no FN, no N): it is named “Автосервис «Колесо»” after its organisation",
            ])
        #expect(cards[1].fields.vcardProperties.first == "X-CARDWALLET-DERIVED-NAME:+7 912 555-01-77")
        #expect(cards[3].fields.phone == "+7 343 555-01-88")
    }

    @Test func evolutionWithItsXEvolutionPropertiesAndUISlots() throws {
        let card = try #require(try Self.cards("evolution-30.vcf").first)
        let fields = card.fields
        #expect(fields.name == "Tomasz Kowalski" && fields.title == "Kernel Developer")
        #expect(fields.website == "http://www.example.org/~tomasz" && fields.birthday == "1979-11-03")
        #expect(fields.bio == "Maintains the block layer backports. Reviews patches on Tuesdays.")
        #expect(fields.tags == ["Work", "Open Source"])
        #expect(fields.address == "ul. Marszałkowska 10, Warszawa, 00-590, Polska")
        #expect(fields.phone == "+48 22 555 01 50" && fields.email == "tomasz.kowalski@example.org")
        #expect(card.uid == "pas-id-5F3A9C2B00000001" && card.warnings.isEmpty)
        let kept = fields.vcardProperties
        for line in [
            "TEL;X-CARDWALLET-FIELD=phone;TYPE=WORK,VOICE;X-EVOLUTION-UI-SLOT=1:+48 22 555 01 50",
            "X-EVOLUTION-MANAGER:Anna Nowak", "X-EVOLUTION-ASSISTANT:Piotr Zieliński",
            "X-EVOLUTION-ANNIVERSARY:2008-05-24",
            "X-EVOLUTION-SPOUSE:Magda Kowalska", "X-EVOLUTION-FILE-AS:Kowalski\\, Tomasz",
            "X-EVOLUTION-BLOG-URL:http://blog.example.org/tk", "X-EVOLUTION-VIDEO-URL:http://video.example.org/tk",
            "CALURI:http://cal.example.org/tk.ics", "FBURL:http://cal.example.org/tk.ifb", "X-MOZILLA-HTML:FALSE",
            "EMAIL;TYPE=HOME;X-EVOLUTION-UI-SLOT=2:tk@home.example.pl", "UID:pas-id-5F3A9C2B00000001",
            "X-JABBER;TYPE=HOME;X-EVOLUTION-UI-SLOT=1:tk@jabber.example.org", "ROLE:Maintainer", "NICKNAME:tk",
        ] {
            #expect(kept.contains(line), "\(line)")
        }
    }
}
