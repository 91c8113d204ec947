import Foundation

/// The XML bodies of the PROPFIND and REPORT requests, with fixed prefixes: `d` for `DAV:`,
/// `c` for CardDAV, `cs` for the Calendar Server namespace.
enum RequestBodies {
    /// `<d:propfind><d:prop>…</d:prop></d:propfind>`.
    static func propfind(_ properties: [XMLName]) -> Data {
        document("d:propfind", "<d:prop>\(elements(properties))</d:prop>")
    }

    /// RFC 6578's `sync-collection` with `token` (empty for the first sync), level 1.
    static func syncCollection(token: String?, properties: [XMLName]) -> Data {
        let token = token.map { "<d:sync-token>\(XMLText.escaped($0))</d:sync-token>" } ?? "<d:sync-token/>"
        return document(
            "d:sync-collection", "\(token)<d:sync-level>1</d:sync-level><d:prop>\(elements(properties))</d:prop>")
    }

    /// RFC 6352's `addressbook-multiget` for `hrefs` (absolute paths).
    static func multiget(hrefs: [String], properties: [XMLName]) -> Data {
        var body = "<d:prop>\(elements(properties))</d:prop>"
        body.reserveCapacity(body.utf8.count + hrefs.count * 64)
        for href in hrefs { body += "<d:href>\(XMLText.escaped(href))</d:href>" }
        return document("c:addressbook-multiget", body)
    }

    private static func document(_ root: String, _ content: String) -> Data {
        Data(
            (#"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
                + #"<\#(root) xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav" "#
                + #"xmlns:cs="http://calendarserver.org/ns/">\#(content)</\#(root)>"#).utf8)
    }

    private static func elements(_ names: [XMLName]) -> String {
        names.map { name in
            switch name.namespace {
            case XMLName.davNamespace: "<d:\(name.local)/>"
            case XMLName.cardDAVNamespace: "<c:\(name.local)/>"
            case XMLName.calendarServerNamespace: "<cs:\(name.local)/>"
            default: #"<x:\#(name.local) xmlns:x="\#(XMLText.escaped(name.namespace))"/>"#
            }
        }.joined()
    }
}
