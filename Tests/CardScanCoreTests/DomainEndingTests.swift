import CardModels
import Foundation
import Testing

@testable import CardScanCore

/// The list of domain endings: read from Debian's Public Suffix List, or the built-in list
/// without it; the choice between readings of an address's host that it makes.
@Suite("Domain endings and the choice between readings")
struct DomainEndingTests {
    static let list = DomainEndings.system
    static let hosts = HostNames(endings: list)
    static let missing = DomainEndings.load(path: "/nonexistent/public_suffix_list.dat")

    @Test("Debian's Public Suffix List is read: every top-level domain, and endings of more labels")
    func systemList() {
        #expect(Self.list.source == .publicSuffixList(path: DomainEndings.debianPath))
        #expect(Self.list.topLevelCount >= 1_000, "\(Self.list.topLevelCount)")
        for label in [
            "com", "law", "health", "bank", "berlin", "tokyo", "photography", "solutions", "kr", "PHOTOGRAPHY",
        ] {
            #expect(Self.list.isTopLevel(label), "\(label)")
        }
        for label in ["corn", "xq", "c0m", "robotics", ""] { #expect(!Self.list.isTopLevel(label), "\(label)") }
        #expect(Self.list.endingLabelCount(of: "acme.co.kr") == 2)
        #expect(Self.list.endingLabelCount(of: "mail.firm.co.jp") == 2)
        #expect(Self.list.endingLabelCount(of: "studio.photography") == 1)
        #expect(Self.list.endingLabelCount(of: "acme.com.au") == 2)
        #expect(Self.list.endingLabelCount(of: "acme.corn") == nil)
        // `*.kawasaki.jp` with its exception `!city.kawasaki.jp`.
        #expect(Self.list.endingLabelCount(of: "ward.kawasaki.jp") == 3)
        #expect(Self.list.endingLabelCount(of: "city.kawasaki.jp") == 2)
    }

    @Test("only the ICANN section counts; wildcards, exceptions and comments are understood")
    func parsing() throws {
        // A hundred made-up top-level domains, as a list holds at least that many.
        let filler = (0..<100).map { "t" + String(UnicodeScalar(97 + $0 / 26)!) + String(UnicodeScalar(97 + $0 % 26)!) }
        let text = """
            // a comment
            example
            // ===BEGIN ICANN DOMAINS===
            // kr : https://en.wikipedia.org/wiki/.kr
            kr
            co.kr
            *.ck
            !www.ck
            Law  trailing words are ignored
            \(filler.joined(separator: "\n"))
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            github.io
            blogspot
            // ===END PRIVATE DOMAINS===
            """
        let endings = try #require(DomainEndings(publicSuffixList: text, path: "/made/up"))
        #expect(endings.source == .publicSuffixList(path: "/made/up"))
        #expect(endings.topLevelCount == 103)
        #expect(endings.isTopLevel("law") && endings.isTopLevel("ck") && endings.isTopLevel("kr"))
        #expect(!endings.isTopLevel("example") && !endings.isTopLevel("blogspot") && !endings.isTopLevel("uk"))
        #expect(endings.endingLabelCount(of: "acme.co.kr") == 2)
        #expect(endings.endingLabelCount(of: "acme.kr") == 1)
        #expect(endings.endingLabelCount(of: "acme.github.io") == nil)
        #expect(endings.endingLabelCount(of: "shop.acme.ck") == 2)
        #expect(endings.endingLabelCount(of: "www.ck") == 1)
        #expect(DomainEndings(publicSuffixList: "com\nnet\n", path: "/x") == nil, "no ICANN section")
    }

    @Test("without the file, the built-in list stands in and says why")
    func missingFile() throws {
        guard case .builtIn(let reason) = Self.missing.source else {
            Issue.record("\(Self.missing.source)")
            return
        }
        #expect(reason.contains("/nonexistent/public_suffix_list.dat"))
        #expect(reason.contains("no such file"), "\(reason)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(DomainEndings.load(path: folder.path).source == .builtIn(reason: "\(folder.path): is a directory"))
        let notAList = folder.appendingPathComponent("list.dat")
        try Data("com\nnet\n".utf8).write(to: notAList)
        #expect(
            DomainEndings.load(path: notAList.path).source
                == .builtIn(reason: "\(notAList.path) holds no ICANN section of the Public Suffix List"))
        // The built-in list: the common generic domains, any two letters, `co.kr`-like endings.
        for label in ["com", "law", "photography", "kr", "xq"] { #expect(Self.missing.isTopLevel(label), "\(label)") }
        for label in ["bike", "corn", "x", "k1"] { #expect(!Self.missing.isTopLevel(label), "\(label)") }
        #expect(Self.missing.endingLabelCount(of: "acme.co.kr") == 2)
        #expect(Self.missing.endingLabelCount(of: "acme.co") == 1)
    }

    @Test(
        "the choice between readings",
        arguments: [
            // Known endings are used, sure or not.
            ("acme.law", false, HostReading.known("acme.law")),
            ("mail.firm.co.jp", false, .known("mail.firm.co.jp")),
            ("studio.photography", true, .known("studio.photography")),
            // Sure and well formed: used whatever it ends in.
            ("acme.corn", true, .unknownEnding("acme.corn")),
            ("firm.xq", true, .unknownEnding("firm.xq")),
            // Doubtful: put right when one usual slip gives a known ending, else not used.
            ("acme.corn", false, .repaired("acme.com", read: "acme.corn")),
            ("acme.c0m", true, .repaired("acme.com", read: "acme.c0m")),
            ("acme.1aw", false, .repaired("acme.law", read: "acme.1aw")),
            ("acme.qqqq", false, .doubtful("acme.qqqq")),
            ("co.kr", true, .doubtful("co.kr")),
            // Doubtful with a known ending: a dash read for the dot of a longer ending.
            ("miraeenergy-padova.it", false, .repaired("miraeenergy.padova.it", read: "miraeenergy-padova.it")),
            ("miraeenergy-padova.it", true, .known("miraeenergy-padova.it")),
            ("acme-robotics.com", false, .known("acme-robotics.com")),
        ])
    func choice(_ host: String, sure: Bool, expected: HostReading) {
        #expect(HostReading.judge(host, sure: sure, hosts: Self.hosts) == expected)
    }

    @Test("without the file, a sure reading is still used and a doubtful one with an unknown ending is not")
    func choiceWithBuiltInList() {
        let hosts = HostNames(endings: Self.missing)
        #expect(HostReading.judge("studio.bike", sure: true, hosts: hosts) == .unknownEnding("studio.bike"))
        #expect(HostReading.judge("studio.bike", sure: false, hosts: hosts) == .doubtful("studio.bike"))
        #expect(HostReading.judge("acme.corn", sure: false, hosts: hosts) == .repaired("acme.com", read: "acme.corn"))
        let note = hosts.note(for: .unknownEnding("studio.bike"), confidence: 93) { "https://" + $0 }
        #expect(note?.contains("built-in list") == true, "\(note ?? "")")
        #expect(note?.contains("no such file") == true, "\(note ?? "")")
    }

    @Test("a lost dot is put back where the list says the ending grows")
    func belongs() {
        #expect(Self.hosts.belongs("kr", after: "acme.co"))
        #expect(Self.hosts.belongs("au", after: "acme.com"))
        #expect(Self.hosts.belongs("fr", after: "acme-robotics"))
        #expect(Self.hosts.belongs("photography", after: "studio"))
        #expect(!Self.hosts.belongs("de", after: "acme.com"), "com.de is no ending")
        #expect(!Self.hosts.belongs("Tel", after: "acme"), "a word in another case")
        #expect(!Self.hosts.belongs("robotics", after: "acme"), "no top-level domain")
    }

    @Test("the organisation's name is the label before the ending")
    func organisationName() {
        #expect(Self.hosts.organisationName(of: "acme-robotics.co.uk") == "acmerobotics")
        #expect(Self.hosts.organisationName(of: "mail.firm.co.jp") == "firm")
        #expect(Self.hosts.organisationName(of: "nordic.vallee-aoste.it") == "nordic")
        #expect(Self.hosts.organisationName(of: "helix.eco.br") == "helix")
        #expect(Self.hosts.organisationName(of: "gmail.com") == nil)
        #expect(Self.hosts.organisationName(of: "co.kr") == nil)
    }
}
