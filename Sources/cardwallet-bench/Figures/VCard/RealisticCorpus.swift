import Foundation

/// The realistic mixed corpus of issue 43: cards as phones and programs write them, not as we
/// do. Seeded, so every run (and every peer) reads the same bytes.
///
/// - Android-style vCard 2.1 (two in five): `CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE` on every
///   value that is not ASCII, quoted-printable soft breaks (`=` at the end of a line) every 74
///   characters, `=0D=0A` line breaks, bare types (`TEL;CELL;PREF`), `X-ANDROID-CUSTOM`, a base64
///   photo on indented lines ended by a blank line; one in ten of them an Outlook-style card in
///   `CHARSET=windows-1252`.
/// - Apple-style vCard 3.0 (seven in twenty): `PRODID`, item groups with `X-ABLabel` and
///   `X-ABADR`, `type=` parameters repeated, `BDAY;value=date:`, `X-SOCIALPROFILE`, escapes
///   (`\n`, `\,`, `\;`), lines folded at 75 octets, `PHOTO;ENCODING=b;TYPE=JPEG`.
/// - vCard 4.0 (one in four, Nextcloud- or Thunderbird-style): `UID:urn:uuid:`, `TEL;VALUE=uri`
///   with `tel:` URIs (some with `;ext=`), `PREF=1`, `BDAY:19850315`, `PHOTO:data:image/jpeg;base64,`;
///   a fifth of them folded by a naive writer at 75 bytes, inside UTF-8 sequences too.
///
/// A JPEG of 1–2 kB is on a fifth of the cards; names are in 18 scripts; notes run to a few
/// hundred characters (some past the 500 of the card's bio). The anchors' own faults are in it:
/// 4.0 `data:` photos, `\;` in values, full birthdays in three spellings, `X-SOCIALPROFILE`,
/// quoted-printable soft breaks. ``Expected`` is what each card says, for the checks.
enum RealisticCorpus {
    /// The seed of the recorded runs.
    static let seed: UInt64 = 0x43_2026

    /// What a card of the corpus says: the values every reader should find.
    struct Expected: Sendable, Equatable {
        enum Style: String, Sendable { case android21, outlook21, apple30, v40, naive40 }
        var style: Style
        var name: String
        var company: String?
        var department: String?
        var title: String?
        /// Every email in file order; ``email`` is the one the card's field takes.
        var emails: [String]
        var email: String?
        /// Every phone number (a `tel:` URI's number without its parameters) in file order.
        var phones: [String]
        var phone: String?
        var note: String?
        var birthday: String?
        var socialProfile: String?
        var photo: [UInt8]?
    }

    /// Writes `count` cards to `path` and returns what each says.
    @discardableResult
    static func write(cards count: Int, seed: UInt64 = seed, to path: String) throws -> [Expected] {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchError("cannot write \(path)") }
        defer { try? handle.close() }
        var generator = Generator(seed: seed)
        var expected: [Expected] = []
        expected.reserveCapacity(count)
        var buffer: [UInt8] = []
        for index in 0..<count {
            expected.append(generator.card(index, into: &buffer))
            if buffer.count > 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        return expected
    }

    /// The corpus in memory (tests).
    static func bytes(cards count: Int, seed: UInt64 = seed) -> (bytes: [UInt8], expected: [Expected]) {
        var generator = Generator(seed: seed)
        var buffer: [UInt8] = []
        let expected = (0..<count).map { generator.card($0, into: &buffer) }
        return (buffer, expected)
    }
}

/// A person's name in one script: given and family names, and how the script orders them.
private struct Script {
    var given: [String]
    var family: [String]
    /// Family name first, without a space (Han, Hangul) or with one (Japanese, Vietnamese).
    var familyFirst = false
    var spaced = true
    /// Words for notes, titles and streets.
    var words: [String]
    var city: [String]
    var country: String
    /// Whether windows-1252 can hold it (Outlook's cards).
    var latin = false
}

private let scripts: [Script] = [
    Script(
        given: ["Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara"],
        family: ["Lovelace", "Hopper", "Turing", "Johnson", "O'Brien", "Hamilton", "Ritchie", "Liskov"],
        words: ["meeting", "project", "launch", "review", "coffee", "budget", "quarterly", "design", "team", "call"],
        city: ["Springfield", "London", "Boston", "Dublin"], country: "United States", latin: true),
    Script(
        given: ["Jürgen", "Zoë", "Käthe", "Jörg", "Sören", "Müge"],
        family: ["Müller", "Schäfer", "Groß", "Köhler", "Weiß", "Bäcker"],
        words: ["Besprechung", "Müllabfuhr", "Geschäftsführer", "Straße", "Größe", "Übung", "Käse", "Brötchen"],
        city: ["München", "Köln", "Düsseldorf"], country: "Deutschland", latin: true),
    Script(
        given: ["José", "Inés", "François", "Hélène", "Joaquín", "Léa"],
        family: ["Núñez", "Peña", "Lefèvre", "García", "Château", "Muñoz"],
        words: ["réunion", "café", "señal", "año", "été", "élève", "niño", "garçon"],
        city: ["Sevilla", "Nîmes", "Córdoba"], country: "España", latin: true),
    Script(
        given: ["Łukasz", "Zofia", "Jiří", "Šárka", "Ádám", "Žofie"],
        family: ["Wiśniewski", "Dvořák", "Kowalczyk", "Nováková", "Szőke", "Żak"],
        words: ["spotkanie", "zażółć", "gęślą", "jaźń", "příliš", "žluťoučký", "kůň", "úpěl"],
        city: ["Łódź", "Brno", "Kraków"], country: "Polska"),
    Script(
        given: ["Minh", "Thảo", "Dũng", "Hương"], family: ["Nguyễn", "Trần", "Lê", "Phạm"], familyFirst: true,
        words: ["cuộc họp", "dự án", "cà phê", "ngân sách", "thiết kế"], city: ["Hà Nội", "Đà Nẵng"],
        country: "Việt Nam"),
    Script(
        given: ["Иван", "Мария", "Алексей", "Ольга", "Дмитрий"],
        family: ["Петров", "Иванова", "Смирнов", "Кузнецова", "Попов"],
        words: ["встреча", "проект", "бюджет", "кофе", "команда", "звонок"], city: ["Москва", "Новосибирск"],
        country: "Россия"),
    Script(
        given: ["Γιώργος", "Ελένη", "Νίκος", "Μαρία"], family: ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Βλάχου"],
        words: ["συνάντηση", "έργο", "καφές", "ομάδα"], city: ["Αθήνα", "Θεσσαλονίκη"], country: "Ελλάδα"),
    Script(
        given: ["محمد", "فاطمة", "أحمد", "ليلى"], family: ["العلي", "الحسن", "الخطيب", "السعدي"],
        words: ["اجتماع", "مشروع", "قهوة", "ميزانية", "فريق"], city: ["القاهرة", "دبي"], country: "مصر"),
    Script(
        given: ["דוד", "שרה", "יוסף", "רחל"], family: ["כהן", "לוי", "מזרחי", "פרץ"],
        words: ["פגישה", "פרויקט", "קפה", "צוות"], city: ["תל אביב", "חיפה"], country: "ישראל"),
    Script(
        given: ["अमित", "प्रिया", "राहुल", "सुनीता"], family: ["शर्मा", "वर्मा", "गुप्ता", "सिंह"],
        words: ["बैठक", "परियोजना", "चाय", "बजट", "टीम"], city: ["मुंबई", "दिल्ली"], country: "भारत"),
    Script(
        given: ["রাহুল", "অনিতা", "সৌরভ"], family: ["দাস", "বসু", "চক্রবর্তী"],
        words: ["সভা", "প্রকল্প", "চা", "দল"], city: ["কলকাতা", "ঢাকা"], country: "বাংলাদেশ"),
    Script(
        given: ["கார்த்திக்", "பிரியா", "அருண்"], family: ["ராஜா", "சுப்பிரமணியம்", "கிருஷ்ணன்"],
        words: ["கூட்டம்", "திட்டம்", "காபி"], city: ["சென்னை", "மதுரை"], country: "இந்தியா"),
    Script(
        given: ["สมชาย", "สมหญิง", "วิชัย"], family: ["ใจดี", "รักไทย", "ศรีสุข"],
        words: ["การประชุม", "โครงการ", "กาแฟ", "ทีมงาน"], city: ["กรุงเทพมหานคร", "เชียงใหม่"], country: "ประเทศไทย"),
    Script(
        given: ["გიორგი", "ნინო", "დავით"], family: ["ბერიძე", "კაპანაძე", "გელაშვილი"],
        words: ["შეხვედრა", "პროექტი", "ყავა"], city: ["თბილისი", "ბათუმი"], country: "საქართველო"),
    Script(
        given: ["Արամ", "Անի", "Տիգրան"], family: ["Պետրոսյան", "Հովհաննիսյան", "Սարգսյան"],
        words: ["հանդիպում", "նախագիծ", "սուրճ"], city: ["Երևան", "Գյումրի"], country: "Հայաստան"),
    Script(
        given: ["伟", "芳", "秀英", "建国"], family: ["王", "李", "张", "刘"], familyFirst: true, spaced: false,
        words: ["会议", "项目", "预算", "咖啡", "设计", "团队"], city: ["北京", "上海"], country: "中国"),
    Script(
        given: ["太郎", "さくら", "健一", "ゆい"], family: ["山田", "佐藤", "鈴木", "高橋"], familyFirst: true,
        words: ["会議", "プロジェクト", "コーヒー", "予算", "デザイン"], city: ["東京都", "大阪市"], country: "日本"),
    Script(
        given: ["민지", "서준", "지수", "하은"], family: ["김", "이", "박", "최"], familyFirst: true, spaced: false,
        words: ["회의", "프로젝트", "커피", "예산", "디자인", "팀"], city: ["서울특별시", "부산광역시"], country: "대한민국"),
]

/// Writes one card at a time in one of the styles.
private struct Generator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }

    mutating func card(_ index: Int, into out: inout [UInt8]) -> RealisticCorpus.Expected {
        let roll = below(100)
        var script = scripts[below(scripts.count)]
        let style: RealisticCorpus.Expected.Style
        switch roll {
        case 0..<40:
            if chance(10) {
                style = .outlook21
                script = scripts[below(3)]  // windows-1252 holds these
            } else {
                style = .android21
            }
        case 40..<75: style = .apple30
        default: style = chance(20) ? .naive40 : .v40
        }
        var person = Person(index: index, script: script, generator: &self)
        var lines = CardLines(style: style)
        switch style {
        case .android21, .outlook21: writeVersion21(&person, &lines)
        case .apple30: writeApple(&person, &lines)
        case .v40, .naive40: writeVersion40(&person, &lines)
        }
        out += lines.bytes
        return person.expected(style: style)
    }

    // MARK: vCard 2.1 (Android, Outlook)

    private mutating func writeVersion21(_ person: inout Person, _ lines: inout CardLines) {
        lines.raw("BEGIN:VCARD")
        lines.raw("VERSION:2.1")
        // Structured values escape their semicolons (`Smith\; Sons`), as Android writes them.
        func parts(_ list: [String]) -> String {
            list.map { $0.replacingOccurrences(of: ";", with: "\\;") }.joined(separator: ";")
        }
        lines.text21("N", parts(person.nParts))
        lines.text21("FN", person.name)
        for (number, phone) in person.phones.enumerated() {
            let type = ["CELL", "WORK", "HOME", "FAX"][number % 4]
            lines.raw("TEL;\(type)\(person.preferredPhone == number ? ";PREF" : ""):\(phone)")
        }
        for (number, email) in person.emails.enumerated() {
            lines.raw(
                "EMAIL;\(number == 0 ? "HOME" : "WORK")\(person.preferredEmail == number ? ";PREF" : ""):\(email)")
        }
        if let company = person.company {
            lines.text21("ORG", parts([company, person.department].compactMap { $0 }))
        }
        if let title = person.title { lines.text21("TITLE", title) }
        if let address = person.address { lines.text21("ADR;HOME", parts(address)) }
        if let note = person.note { lines.text21("NOTE", note) }
        if let birthday = person.birthday { lines.raw("BDAY:\(birthday)") }
        if lines.style == .android21, chance(40) {
            lines.raw("X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;\(person.given);1;;;;;;;;;;;;;")
        }
        if let url = person.website { lines.raw("URL:\(url)") }
        if let photo = person.photo {
            // Android: indented base64 lines, a blank line after.
            let base64 = Array(Data(photo).base64EncodedString().utf8)
            var start = 0
            var first = true
            while start < base64.count {
                let end = min(base64.count, start + (first ? 50 : 72))
                let chunk = String(decoding: base64[start..<end], as: UTF8.self)
                lines.raw(first ? "PHOTO;ENCODING=BASE64;JPEG:" + chunk : "  " + chunk)
                first = false
                start = end
            }
            lines.raw("")
        }
        lines.raw("END:VCARD")
    }

    // MARK: vCard 3.0 (Apple)

    private mutating func writeApple(_ person: inout Person, _ lines: inout CardLines) {
        lines.raw("BEGIN:VCARD")
        lines.raw("VERSION:3.0")
        lines.raw("PRODID:-//Apple Inc.//iPhone OS 17.\(below(6))//EN")
        lines.folded("N:" + person.nParts.map(escape).joined(separator: ";"))
        lines.folded("FN:" + escape(person.name))
        if let company = person.company {
            lines.folded("ORG:" + [company, person.department ?? ""].map(escape).joined(separator: ";") + ";")
        }
        if let title = person.title { lines.folded("TITLE:" + escape(title)) }
        var item = 0
        for (number, email) in person.emails.enumerated() {
            let pref = person.preferredEmail == number ? ";type=pref" : ""
            if number == 0 {
                item += 1
                lines.folded("item\(item).EMAIL;type=INTERNET\(pref):\(email)")
                lines.folded("item\(item).X-ABLabel:_$!<Other>!$_")
            } else {
                lines.folded("EMAIL;type=INTERNET;type=\(number == 1 ? "WORK" : "HOME")\(pref):\(email)")
            }
        }
        for (number, phone) in person.phones.enumerated() {
            let pref = person.preferredPhone == number ? ";type=pref" : ""
            if number == 1 {
                item += 1
                lines.folded("item\(item).TEL\(pref):\(phone)")
                lines.folded("item\(item).X-ABLabel:Lab")
            } else {
                lines.folded("TEL;type=\(number == 0 ? "CELL" : "WORK");type=VOICE\(pref):\(phone)")
            }
        }
        if let address = person.address {
            item += 1
            lines.folded("item\(item).ADR;type=HOME;type=pref:" + address.map(escape).joined(separator: ";"))
            lines.folded("item\(item).X-ABADR:us")
        }
        if let url = person.website {
            item += 1
            lines.folded("item\(item).URL;type=pref:\(url)")
            lines.folded("item\(item).X-ABLabel:_$!<HomePage>!$_")
        }
        if let birthday = person.birthday { lines.folded("BDAY;value=date:\(birthday)") }
        if let note = person.note { lines.folded("NOTE:" + escape(note)) }
        if let social = person.socialProfile {
            lines.folded("X-SOCIALPROFILE;type=twitter;x-user=\(person.handle):\(social)")
        }
        if let photo = person.photo {
            lines.folded("PHOTO;ENCODING=b;TYPE=JPEG:" + Data(photo).base64EncodedString())
        }
        lines.raw("END:VCARD")
    }

    // MARK: vCard 4.0

    private mutating func writeVersion40(_ person: inout Person, _ lines: inout CardLines) {
        lines.raw("BEGIN:VCARD")
        lines.raw("VERSION:4.0")
        if chance(50) { lines.raw("PRODID:-//Sabre//Sabre VObject 4.5.4//EN") }
        lines.folded("UID:urn:uuid:\(person.uuid)")
        lines.folded("FN:" + escape(person.name))
        lines.folded("N:" + person.nParts.map(escape).joined(separator: ";"))
        if let company = person.company {
            lines.folded("ORG:" + [company, person.department].compactMap { $0 }.map(escape).joined(separator: ";"))
        }
        if let title = person.title { lines.folded("TITLE:" + escape(title)) }
        for (number, email) in person.emails.enumerated() {
            let pref = person.preferredEmail == number ? ";PREF=1" : ""
            lines.folded("EMAIL;TYPE=\(number == 0 ? "work" : "home")\(pref):\(email)")
        }
        for (number, phone) in person.phones.enumerated() {
            let pref = person.preferredPhone == number ? ";PREF=1" : ""
            let type = number == 0 ? "\"cell,voice\"" : "work"
            let ext = person.extensions[number].map { ";ext=\($0)" } ?? ""
            lines.folded("TEL;VALUE=uri;TYPE=\(type)\(pref):tel:\(phone)\(ext)")
        }
        if let address = person.address {
            lines.folded("ADR;TYPE=home:" + address.map(escape).joined(separator: ";"))
        }
        if let url = person.website { lines.folded("URL:\(url)") }
        if let birthday = person.birthday { lines.folded("BDAY:" + birthday.filter { $0 != "-" }) }
        if chance(15) { lines.folded("ANNIVERSARY:--0\(1 + below(9))1\(below(9))") }
        if let note = person.note { lines.folded("NOTE:" + escape(note)) }
        if let social = person.socialProfile { lines.folded("X-SOCIALPROFILE;TYPE=twitter:\(social)") }
        if chance(30) {
            lines.folded("CATEGORIES:" + ["friends", "work", "conference"].prefix(1 + below(3)).joined(separator: ","))
        }
        if let photo = person.photo {
            lines.folded("PHOTO:data:image/jpeg;base64," + Data(photo).base64EncodedString())
        }
        lines.raw("REV:2024\(10 + below(3))\(10 + below(18))T1\(below(10))2030Z")
        lines.raw("END:VCARD")
    }

    /// vCard 3.0 and 4.0 text escapes.
    private func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}

/// One card's person, drawn from the generator.
private struct Person {
    var given: String
    var name: String
    var nParts: [String]
    var company: String?
    var department: String?
    var title: String?
    var emails: [String]
    var preferredEmail: Int?
    var phones: [String]
    var extensions: [String?]
    var preferredPhone: Int?
    var address: [String]?
    var website: String?
    var note: String?
    var birthday: String?
    var handle: String
    var socialProfile: String?
    var photo: [UInt8]?
    var uuid: String

    init(index: Int, script: Script, generator: inout Generator) {
        given = generator.pick(script.given)
        let family = generator.pick(script.family)
        name =
            script.familyFirst
            ? (script.spaced ? family + " " + given : family + given) : given + " " + family
        nParts = [family, given, "", "", ""]
        handle = "user\(index)"
        let companies = [
            "Acme Corp", "Smith; Sons", "Analytical Engines, Ltd", script.family[0] + " & " + script.family[1],
            script.city[0] + " " + script.words[0],
        ]
        if generator.chance(80) {
            company = generator.pick(companies)
            if generator.chance(40) {
                department = generator.pick(["Research", "Sales; EMEA", "R&D", script.words[1]])
            }
        }
        if generator.chance(70) {
            title = generator.pick(["Engineer", "Designer", "Head of " + script.words[1], script.words[2]])
        }
        let emailCount = 1 + generator.below(3)
        emails = (0..<emailCount).map { number in
            "\(["person", "contact", "p"][number % 3])\(index).\(number)@\(["example.com", "example.org", "mail.example.net"][number % 3])"
        }
        if emailCount > 1, generator.chance(50) { preferredEmail = generator.below(emailCount) }
        let phoneCount = 1 + generator.below(3)
        phones = (0..<phoneCount).map { number in
            switch (index + number) % 3 {
            case 0: "+1-555-\(1000 + (index * 7 + number) % 9000)"
            case 1: "+49 30 \(100_000 + (index * 13 + number) % 900_000)"
            default: "+82-10-\(1000 + index % 9000)-\(1000 + (index + number * 17) % 9000)"
            }
        }
        extensions = phones.indices.map { _ in generator.chance(15) ? String(10 + generator.below(90)) : nil }
        if phoneCount > 1, generator.chance(50) { preferredPhone = generator.below(phoneCount) }
        if generator.chance(50) {
            address = [
                "", "", "\(1 + generator.below(200)) \(generator.pick(script.words)) Street",
                generator.pick(script.city), "", String(10000 + generator.below(89999)), script.country,
            ]
        }
        if generator.chance(30) { website = "https://example.com/people/\(index)" }
        if generator.chance(70) {
            var sentences: [String] = []
            let count = 1 + generator.below(generator.chance(15) ? 25 : 8)
            for sentence in 0..<count {
                var words: [String] = []
                for _ in 0..<(3 + generator.below(6)) { words.append(generator.pick(script.words)) }
                let mark = sentence % 4 == 1 ? "; " : sentence % 4 == 3 ? ", " : " "
                sentences.append(words.joined(separator: mark) + ".")
            }
            note = sentences.joined(separator: generator.chance(50) ? "\n" : " ")
        }
        if generator.chance(60) {
            birthday = "19\(50 + generator.below(50))-0\(1 + generator.below(9))-1\(generator.below(9))"
        }
        if generator.chance(30) { socialProfile = "https://twitter.com/user\(index)" }
        if generator.chance(20) { photo = Self.jpeg(bytes: 1000 + generator.below(1000), generator: &generator) }
        uuid = String(format: "%08x-0bc3-424c-9c26-%012x", index, generator.below(1 << 40))
    }

    /// A JPEG-shaped picture of `bytes` bytes: SOI, a JFIF header, data, EOI. The readers check
    /// only its first bytes (PNG or JPEG); its content is noise, as compressed data looks.
    static func jpeg(bytes: Int, generator: inout Generator) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        while out.count < bytes - 2 {
            let word = generator.random.next()
            for shift in stride(from: 0, to: 64, by: 8) where out.count < bytes - 2 {
                out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return out + [0xFF, 0xD9]
    }

    func expected(style: RealisticCorpus.Expected.Style) -> RealisticCorpus.Expected {
        RealisticCorpus.Expected(
            style: style, name: name, company: company, department: department, title: title, emails: emails,
            email: emails[preferredEmail ?? 0], phones: phones, phone: phones[preferredPhone ?? 0], note: note,
            birthday: birthday, socialProfile: style == .android21 || style == .outlook21 ? nil : socialProfile,
            photo: photo)
    }
}

/// A card's physical lines in a style's way: CR LF, folding, quoted-printable.
private struct CardLines {
    let style: RealisticCorpus.Expected.Style
    var bytes: [UInt8] = []

    init(style: RealisticCorpus.Expected.Style) { self.style = style }

    mutating func raw(_ line: String) {
        bytes += line.utf8
        bytes += [13, 10]
    }

    /// Folded at 75 octets: at a character boundary, or anywhere for the naive writer.
    mutating func folded(_ line: String) {
        let utf8 = Array(line.utf8)
        var start = 0
        var room = 75
        while utf8.count - start > room {
            var cut = start + room
            if style != .naive40 {
                while cut > start, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
            }
            bytes += utf8[start..<cut]
            bytes += [13, 10, 32]
            start = cut
            room = 74
        }
        bytes += utf8[start...]
        bytes += [13, 10]
    }

    /// A 2.1 text value: as it is when ASCII; else `CHARSET=…;ENCODING=QUOTED-PRINTABLE` with
    /// soft breaks every 74 characters, as Android writes it (Outlook: windows-1252).
    mutating func text21(_ header: String, _ value: String) {
        let ascii = value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if ascii {
            raw(header + ":" + value)
            return
        }
        let outlook = style == .outlook21
        let charset = outlook ? "windows-1252" : "UTF-8"
        var encoded: [String] = []
        let valueBytes: [UInt8] =
            outlook
            ? Array((value.replacingOccurrences(of: "\n", with: "\r\n").data(using: .windowsCP1252) ?? Data()))
            : Array(value.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        for byte in valueBytes {
            if byte >= 0x21, byte < 0x7F, byte != UInt8(ascii: "="), !(outlook && byte == UInt8(ascii: ";")) {
                encoded.append(String(UnicodeScalar(byte)))
            } else {
                encoded.append(String(format: "=%02X", byte))
            }
        }
        var line = header + ";CHARSET=\(charset);ENCODING=QUOTED-PRINTABLE:"
        var width = 0
        for piece in encoded {
            if width + piece.count > 73 {
                raw(line + "=")
                line = ""
                width = 0
            }
            line += piece
            width += piece.count
        }
        raw(line)
    }
}
