import Foundation
import Testing

@testable import CardDAV

/// The hrefs a sync answer holds by the thousand are read without building a URL when they are
/// plain absolute paths; every other href goes through `URL`, and both ways agree.
struct HrefFastPathTests {
    static let base = URL(string: "https://dav.example.com/alice/contacts/")!

    /// What the slow way (a URL resolved against the request's) makes of `href`.
    static func slow(_ href: String) -> String? {
        Href.resolve(href, against: base).map(Href.path(of:))
    }

    @Test(
        "a plain absolute path is canonical without a URL, as the URL way makes it",
        arguments: [
            "/alice/contacts/card-000001.vcf", "/alice/contacts/", "/", "/a%7eb/x%40y.vcf", "/a~b/x@y.vcf",
            "/alice/contacts/a%2fb.vcf", "/alice/contacts/%C3%BC.vcf", "/alice/con;tacts/x=1,2.vcf",
            "/alice/contacts/.hidden.vcf", "/alice/contacts/x..y.vcf", "/alice//contacts/x.vcf",
        ])
    func plain(href: String) throws {
        let fast = try #require(Href.plainAbsolutePath(href), "\(href) should be plain")
        #expect(fast == Self.slow(href), "\(href)")
    }

    @Test(
        "anything else is left to the URL way",
        arguments: [
            "alice/contacts/x.vcf", "//evil.example/x.vcf", "https://dav.example.com/x.vcf", "/a/./b.vcf",
            "/a/../b.vcf",
            "/a/..", "/a/.", "/a/%2e%2e/b.vcf", "/a/%2E/b.vcf", "/a/x.vcf?x=1", "/a/x.vcf#top", "/a b.vcf", "/ü.vcf",
            "/a/%zz.vcf", "/a/%4", "",
        ])
    func notPlain(href: String) {
        #expect(Href.plainAbsolutePath(href) == nil, "\(href)")
    }

    @Test func statusLinesAreReadInEveryCaseAndNothingElseIs() {
        #expect(MultistatusReader.statusCode(in: "HTTP/1.1 200 OK") == 200)
        #expect(MultistatusReader.statusCode(in: "  http/1.1\t404 Not Found\n") == 404)
        #expect(MultistatusReader.statusCode(in: "HTTP/2 507") == 507)
        for line in [
            "", "HTTP/1.1", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 +20 OK", "FTP/1.1 200 OK",
            "HTTP/1.1 700 Odd", "HTTP/1.1 099 Low",
        ] {
            #expect(MultistatusReader.statusCode(in: line) == nil, "\(line)")
        }
    }

    @Test func textIsTrimmedOfXMLWhiteSpaceOnly() {
        #expect(XMLTree(.dav("href"), text: " \r\n\t/a/b.vcf \n").trimmedText == "/a/b.vcf")
        #expect(XMLTree(.dav("href"), text: "/a/b.vcf").trimmedText == "/a/b.vcf")
        #expect(XMLTree(.dav("href"), text: " \n ").trimmedText == "")
        // A no-break space is not XML white space: it is part of the text.
        #expect(XMLTree(.dav("getetag"), text: "\u{A0}\"e\" ").trimmedText == "\u{A0}\"e\"")
        #expect(XMLTree(.dav("getetag"), text: " é ").trimmedText == "é")
    }
}
