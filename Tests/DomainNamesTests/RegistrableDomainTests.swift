import Foundation
import Testing

@testable import DomainNames

/// Registrable domains by the Public Suffix List: both sections, wildcards and exceptions, and
/// what has none (what the CardDAV client's rule on other hosts relies on).
@Suite struct RegistrableDomainTests {
    static let system = PublicSuffixList.system

    /// A made-up list: a hundred top-level domains, as a list holds at least that many.
    static let madeUp: PublicSuffixList = {
        let filler = (0..<100).map { "t" + String(UnicodeScalar(97 + $0 / 26)!) + String(UnicodeScalar(97 + $0 % 26)!) }
        let text = """
            // ===BEGIN ICANN DOMAINS===
            com
            uk
            co.uk
            io
            *.ck
            !www.ck
            \(filler.joined(separator: "\n"))
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            github.io
            *.compute.example.com
            // ===END PRIVATE DOMAINS===
            """
        return PublicSuffixList(text: text, path: "/made/up")!
    }()

    @Test("the registrable domain is the public suffix and one label more, both sections counted")
    func madeUpList() {
        let list = Self.madeUp
        #expect(list.registrableDomain(of: "p42-contacts.icloud.com") == "icloud.com")
        #expect(list.registrableDomain(of: "ICLOUD.com.") == "icloud.com")
        #expect(list.registrableDomain(of: "a.b.example.co.uk") == "example.co.uk")
        #expect(list.registrableDomain(of: "alice.github.io") == "alice.github.io", "a private ending")
        #expect(list.registrableDomain(of: "x.alice.github.io") == "alice.github.io")
        #expect(list.registrableDomain(of: "vm.eu.compute.example.com") == "vm.eu.compute.example.com")
        #expect(list.registrableDomain(of: "shop.acme.ck") == "shop.acme.ck", "*.ck: acme.ck is an ending")
        #expect(list.registrableDomain(of: "a.www.ck") == "www.ck", "!www.ck is a name")
        for none in ["co.uk", "github.io", "com", "acme.ck", "dav.internal", "127.0.0.1", "::1", "a..com", ""] {
            #expect(list.registrableDomain(of: none) == nil, "\(none)")
        }
        #expect(list.suffixLabelCount(of: "alice.github.io") == 1, "the ICANN section alone by default")
        #expect(list.suffixLabelCount(of: "alice.github.io", sections: [.icann, .privateDomains]) == 2)
        #expect(PublicSuffixList(text: "com\nnet\n", path: "/x") == nil, "no ICANN section")
    }

    @Test("Debian's list is read and tells the providers' hosts apart")
    func debianList() throws {
        let list = try Self.system.get()
        #expect(list.path == PublicSuffixList.debianPath)
        #expect(list.topLevelDomains.count >= 1_000)
        #expect(list.registrableDomain(of: "p42-contacts.icloud.com") == "icloud.com")
        #expect(list.registrableDomain(of: "contacts.icloud.com") == "icloud.com")
        #expect(list.registrableDomain(of: "carddav.fastmail.com") == "fastmail.com")
        #expect(list.registrableDomain(of: "dav.example.co.uk") == "example.co.uk")
        #expect(list.registrableDomain(of: "alice.github.io") == "alice.github.io")
        #expect(list.registrableDomain(of: "bob.github.io") == "bob.github.io")
        #expect(list.registrableDomain(of: "evil.example") == nil, "example is no top-level domain")
    }

    @Test("a missing or unusable file says why")
    func failures() throws {
        #expect(
            PublicSuffixList.load(path: "/nonexistent/list.dat").failure?.description
                == "/nonexistent/list.dat: no such file or directory")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAList = folder.appendingPathComponent("list.dat")
        try Data("com\nnet\n".utf8).write(to: notAList)
        #expect(
            PublicSuffixList.load(path: notAList.path).failure?.description
                == "\(notAList.path) holds no ICANN section of the Public Suffix List")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
