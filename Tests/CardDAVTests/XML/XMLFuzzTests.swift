import Foundation
import Testing

@testable import CardDAV

/// Random documents and mutants of real answers, from fixed seeds: the reader never crashes,
/// fails only with an ``XMLFailure`` that says where, and reads back exactly what was written.
@Suite struct XMLFuzzTests {
    /// Answers as Radicale and Xandikos write them.
    static let corpus = [
        #"<?xml version='1.0' encoding='utf-8'?>\#n<multistatus xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><response><href>/alice/contacts/</href><propstat><prop><resourcetype><CR:addressbook /><collection /></resourcetype><displayname>Contacts</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"#,
        #"<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:carddav"><ns0:response><ns0:href>/user/contacts/addressbook/a.vcf</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"0f55"</ns0:getetag><ns1:address-data>BEGIN:VCARD&#13;&#10;FN:A &amp; B&#13;&#10;END:VCARD&#13;&#10;</ns1:address-data></ns0:prop></ns0:propstat></ns0:response><ns0:sync-token>b7e3</ns0:sync-token></ns0:multistatus>"#,
        #"<?xml version='1.0' encoding='utf-8'?>\#n<error xmlns="DAV:"><valid-sync-token /></error>"#,
    ]

    static let fragments: [[UInt8]] =
        [
            "<", ">", "/>", "</", "&", "&amp;", "&lt;", "&#x41;", "&#0;", "&bogus;", "<!DOCTYPE x>", "<![CDATA[", "]]>",
            "<!--", "-->", "<?x ?>", " xmlns:d=\"DAV:\"", "d:", "</d:response>", "\r\n", "\r", "\"", "'", "=", "\u{0}",
            "\u{FEFF}", "é", "\u{202E}",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xFE, 0xFF]]

    static func mutate(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty: bytes.remove(at: position)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...60, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default: bytes.insert(contentsOf: fragments.randomElement(using: &random)!, at: position)
            }
        }
        return bytes
    }

    @Test func mutantsOfRealAnswersFailCleanlyOrRead() {
        var random = SeededGenerator(seed: 0xCA4D_DA5E)
        var read = 0
        var refused = 0
        for round in 0..<4_000 {
            let bytes = Self.mutate(Array(Self.corpus[round % Self.corpus.count].utf8), &random)
            do {
                _ = try MultistatusReader.read(Data(bytes), limits: XMLLimits()) { _ in }
                read += 1
            } catch MultistatusReader.Problem.xml(let failure) {
                refused += 1
                #expect(failure.line >= 1 && failure.column >= 1, "\(failure)")
            } catch {
                // Well-formed but not a multistatus, or a response without an href: also refused.
                refused += 1
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(read > 100)
        #expect(refused > 1_000)
    }

    @Test func randomBytesNeverCrashTheReader() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...300, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if Bool.random(using: &random) { bytes.insert(contentsOf: Array("<r>".utf8), at: 0) }
            #expect(throws: XMLFailure.self) { try XMLDocumentReader.tree(Data(bytes)) }
        }
    }

    /// A random tree, written with random prefixes and escaping, reads back as the same tree.
    @Test func randomDocumentsReadBackAsWritten() throws {
        var random = SeededGenerator(seed: 2026)
        for _ in 0..<500 {
            let tree = Self.randomElement(depth: 0, &random)
            let text = Self.write(tree, declared: [:], &random)
            let read = try XMLDocumentReader.tree(Data(text.utf8))
            #expect(read.name == tree.name)
            #expect(read.children == tree.children, "\(text)")
        }
    }

    static let namespaces = ["DAV:", "urn:ietf:params:xml:ns:carddav", "urn:x", ""]
    static let locals = ["multistatus", "response", "href", "prop", "a", "é"]
    static let texts = [
        "", "plain", "a & b", "<tag>", "\"quoted\" 'single'", "BEGIN:VCARD\r\nEND:VCARD\r\n", "ü😀", "]]>",
    ]

    static func randomElement(depth: Int, _ random: inout SeededGenerator) -> XMLTree {
        let name = XMLName(namespaces.randomElement(using: &random)!, locals.randomElement(using: &random)!)
        var element = XMLTree(name)
        if depth < 4, Bool.random(using: &random) {
            element.children = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                randomElement(depth: depth + 1, &random)
            }
        } else {
            element.text = texts.randomElement(using: &random)!
        }
        return element
    }

    static func write(_ element: XMLTree, declared: [String: String], _ random: inout SeededGenerator) -> String {
        var scope = declared
        var declarations = ""
        let qualified: String
        if element.name.namespace.isEmpty {
            // No namespace: only unprefixed, with the default namespace undeclared.
            if scope[""] != nil && scope[""] != "" {
                declarations += #" xmlns="""#
            }
            scope[""] = ""
            qualified = element.name.local
        } else if Bool.random(using: &random) {
            if scope[""] != element.name.namespace {
                declarations += #" xmlns="\#(element.name.namespace)""#
                scope[""] = element.name.namespace
            }
            qualified = element.name.local
        } else {
            let prefix = ["d", "C", "ns0", "x"].randomElement(using: &random)!
            if scope[prefix] != element.name.namespace {
                declarations += #" xmlns:\#(prefix)="\#(element.name.namespace)""#
                scope[prefix] = element.name.namespace
            }
            qualified = prefix + ":" + element.name.local
        }
        let inner =
            element.children.isEmpty
            ? XMLText.escaped(element.text) : element.children.map { write($0, declared: scope, &random) }.joined()
        return "<\(qualified)\(declarations)>\(inner)</\(qualified)>"
    }
}
