import Foundation
import Testing

@testable import CardDAV

/// The XML reader on what DAV servers send, and on what only a hostile server sends.
@Suite struct XMLReaderTests {
    /// The whole document as one tree (root plus its children).
    static func tree(_ text: String, limits: XMLLimits = XMLLimits()) throws -> XMLTree {
        try XMLDocumentReader.tree(Data(text.utf8), limits: limits)
    }

    /// The failure reading `text`, or `nil` when it reads.
    static func failure(_ text: String, limits: XMLLimits = XMLLimits()) -> XMLFailure? {
        do {
            _ = try tree(text, limits: limits)
            return nil
        } catch let failure as XMLFailure {
            return failure
        } catch {
            Issue.record("not an XMLFailure: \(error)")
            return nil
        }
    }

    @Test(
        "namespaces are resolved whatever prefix the server picks",
        arguments: [
            #"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href></D:response></D:multistatus>"#,
            #"<multistatus xmlns="DAV:"><response><href>/a</href></response></multistatus>"#,
            #"<ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>/a</ns0:href></ns0:response></ns0:multistatus>"#,
            #"<x:multistatus xmlns:x="DAV:"><response xmlns="DAV:"><y:href xmlns:y="DAV:">/a</y:href></response></x:multistatus>"#,
        ])
    func namespaces(document: String) throws {
        let root = try Self.tree(document)
        #expect(root.name == .dav("multistatus"))
        let response = try #require(root.child(.dav("response")))
        #expect(response.child(.dav("href"))?.text == "/a")
    }

    @Test func aPrefixMeansItsOwnDeclarationInScope() throws {
        let root = try Self.tree(
            #"<a:r xmlns:a="DAV:"><a:x xmlns:a="urn:other"><a:y/></a:x><a:z/></a:r>"#)
        #expect(root.children.map(\.name) == [XMLName("urn:other", "x"), .dav("z")])
        #expect(root.children[0].children.map(\.name) == [XMLName("urn:other", "y")])
    }

    @Test func unprefixedAttributesHaveNoNamespace() throws {
        let root = try Self.tree(#"<r xmlns="DAV:" xmlns:q="urn:q"><e a="1" q:b='2'/></r>"#)
        #expect(root.children[0].attributes == [XMLName("", "a"): "1", XMLName("urn:q", "b"): "2"])
    }

    @Test func entitiesCharacterReferencesAndCDATAAreDecoded() throws {
        let root = try Self.tree(
            "<r><t>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#xE9;&#x1F600;<![CDATA[<raw & x>]]></t></r>")
        #expect(root.children[0].text == "a & b <c> \"d\" 'e' éé😀<raw & x>")
    }

    @Test func lineEndsAreNormalisedAsXMLRequiresAndAnEncodedCRStays() throws {
        let root = try Self.tree("<r><t>BEGIN:VCARD\r\nFN:A\rEND:VCARD&#13;\n</t></r>")
        #expect(root.children[0].text == "BEGIN:VCARD\nFN:A\nEND:VCARD\r\n")
    }

    @Test func declarationCommentsProcessingInstructionsAndABOMAreSkipped() throws {
        let text = "\u{FEFF}<?xml version='1.0' encoding='UTF-8'?>\n<!-- a > b --><?pi x?>\n<r><!--c--><t>v</t></r>\n"
        let root = try Self.tree(text)
        #expect(root.children.map(\.text) == ["v"])
    }

    @Test func whiteSpaceBetweenChildrenIsNotText() throws {
        let root = try Self.tree("<r>\n  <p>\n    <a>1</a>\n    <b/>\n  </p>\n</r>")
        #expect(root.children[0].text == "")
        #expect(root.children[0].children.map(\.text) == ["1", ""])
    }

    // MARK: Refusals

    @Test func aBillionLaughsIsRefusedAtTheDoctype() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += " <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        text += "]>\n<multistatus xmlns=\"DAV:\">&lol9;</multistatus>"
        let failure = Self.failure(text)
        #expect(failure?.reason == .doctypeRefused)
        #expect(failure?.line == 2)
    }

    @Test func anExternalEntityIsRefusedBeforeAnythingIsRead() throws {
        // A file that exists: were it read, its text would come back as the href.
        let secret = FileManager.default.temporaryDirectory.appending(path: "carddav-xxe-\(UUID().uuidString)")
        try Data("SECRET-CONTENTS".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE m [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <m:multistatus xmlns:m="DAV:"><m:response><m:href>&xxe;</m:href></m:response></m:multistatus>
            """
        let failure = Self.failure(text)
        #expect(failure?.reason == .doctypeRefused)
        #expect(failure.map { !$0.description.contains("SECRET") } == true)
        #expect(failure?.description.contains("document type declaration") == true)
    }

    @Test(
        "a doctype is refused however it is written",
        arguments: [
            "<!doctype r><r/>", "<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r/>", "<r/><!DOCTYPE r>",
        ])
    func doctypeAnywhere(text: String) {
        #expect(Self.failure(text)?.reason == .doctypeRefused)
    }

    @Test(
        "refusals",
        arguments: [
            ("<r>&nbsp;</r>", XMLFailure.Reason.undeclaredEntity("nbsp")),
            ("<r>&#0;</r>", .invalidCharacterReference("#0")),
            ("<r>&#xD800;</r>", .invalidCharacterReference("#xD800")),
            ("<r>&#x110000;</r>", .invalidCharacterReference("#x110000")),
            ("<r><a></b></r>", .mismatchedEndTag(expected: "a", found: "b")),
            ("<p:r/>", .unboundPrefix("p")),
            ("<r><a>", .unexpectedEnd),
            ("<r", .unexpectedEnd),
            ("<?xml version='1.0' encoding='ISO-8859-1'?><r/>", .unsupportedEncoding("it declares ISO-8859-1")),
            ("<r/><s/>", .malformed("a second root element")),
            ("text<r/>", .malformed("text before the root element")),
            ("<r/>text", .malformed("text after the root element")),
            ("", .malformed("there is no root element")),
            ("<r a='1' a='2'/>", .malformed("the attribute a appears twice")),
            ("<r a=1/>", .malformed("an attribute value must be quoted")),
            ("<r>a & b</r>", .malformed("a “&” that does not start a reference (write &amp;)")),
            ("<r a='<'/>", .malformed("“<” inside an attribute value")),
            ("<r><!ELEMENT r ANY></r>", .malformed("markup declarations (<!…>) are not allowed")),
        ])
    func refusal(text: String, reason: XMLFailure.Reason) {
        #expect(Self.failure(text)?.reason == reason)
    }

    @Test func invalidUTF8AndUTF16AreRefused() {
        var bytes = Data("<r><t>".utf8)
        bytes.append(contentsOf: [0xC3, 0x28])
        bytes.append(contentsOf: Data("</t></r>".utf8))
        #expect(throws: XMLFailure.self) { try XMLDocumentReader.tree(bytes) }
        let utf16 = Data([0xFF, 0xFE]) + "<r/>".data(using: .utf16LittleEndian)!
        #expect(throws: XMLFailure(.unsupportedEncoding("UTF-16"), line: 1, column: 1)) {
            try XMLDocumentReader.tree(utf16)
        }
    }

    @Test func failuresSayWhere() throws {
        let failure = try #require(Self.failure("<r>\n  <a>\n  </b>\n</r>"))
        #expect(failure.line == 3)
        #expect(failure.column == 7)
        #expect(failure.description == "the end tag </b> does not close <a> (line 3, column 7)")
    }

    @Test func untrustedTextInAFailureIsEscapedForTheTerminal() throws {
        let failure = try #require(Self.failure("<r>&a\u{202E}b;</r>"))
        #expect(failure.reason == .undeclaredEntity("a\u{202E}b"))
        #expect(!failure.description.contains("\u{202E}"))
        #expect(failure.description.contains(#"\u{202E}"#))
    }

    // MARK: Caps

    @Test func everyCapIsEnforced() {
        let deep = String(repeating: "<a>", count: 11) + String(repeating: "</a>", count: 11)
        #expect(
            Self.failure(deep, limits: XMLLimits(maximumDepth: 10))?.reason
                == .limitExceeded(
                    "levels of nested elements", limit: 10))
        #expect(
            Self.failure(String(repeating: "<a>", count: 10_000))?.reason
                == .limitExceeded(
                    "levels of nested elements", limit: 64))
        let wide = "<r>" + String(repeating: "<a/>", count: 20) + "</r>"
        #expect(
            Self.failure(wide, limits: XMLLimits(maximumElements: 10))?.reason
                == .limitExceeded(
                    "elements", limit: 10))
        #expect(
            Self.failure(
                "<r><t>" + String(repeating: "x", count: 101) + "</t></r>",
                limits: XMLLimits(maximumTextBytes: 100))?.reason
                == .limitExceeded(
                    "bytes of text in one element", limit: 100))
        #expect(
            Self.failure(
                "<r><t>" + String(repeating: "&amp;", count: 101) + "</t></r>",
                limits: XMLLimits(maximumTextBytes: 100))?.reason
                == .limitExceeded(
                    "bytes of text in one element", limit: 100))
        #expect(
            Self.failure(
                "<r " + (0..<5).map { "a\($0)='1'" }.joined(separator: " ") + "/>",
                limits: XMLLimits(maximumAttributes: 4))?.reason
                == .limitExceeded(
                    "attributes on one element", limit: 4))
        #expect(
            Self.failure(
                "<" + String(repeating: "n", count: 65) + "/>",
                limits: XMLLimits(maximumNameBytes: 64))?.reason == .limitExceeded("bytes in a name", limit: 64))
        #expect(
            Self.failure(
                "<r>" + String(repeating: " ", count: 100) + "</r>",
                limits: XMLLimits(maximumBytes: 50))?.reason == .limitExceeded("bytes", limit: 50))
        let bigChild = "<r><c>" + String(repeating: "<a/>", count: 6) + "</c></r>"
        #expect(
            Self.failure(bigChild, limits: XMLLimits(maximumSubtreeElements: 5))?.reason
                == .limitExceeded(
                    "elements in one child of the root", limit: 5))
    }

    /// 100,000 responses read with room for one response's elements at a time: the reader
    /// never holds more than one child of the root.
    @Test func aMultistatusOfOneHundredThousandResponsesIsReadOneResponseAtATime() throws {
        let count = 100_000
        var text = #"<d:multistatus xmlns:d="DAV:">"#
        text.reserveCapacity(count * 80)
        for index in 0..<count {
            text += "<d:response><d:href>/a/\(index).vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"
            text += "</d:response>"
        }
        text += "<d:sync-token>t-1</d:sync-token></d:multistatus>"
        var seen = 0
        var last = ""
        let summary = try MultistatusReader.read(
            Data(text.utf8), limits: XMLLimits(maximumSubtreeElements: 3)
        ) { response in
            seen += 1
            last = response.hrefs[0]
            #expect(response.status == 404)
        }
        #expect(seen == count)
        #expect(summary.responses == count)
        #expect(last == "/a/99999.vcf")
        #expect(summary.syncToken == "t-1")
    }
}
