import Foundation

/// One `response` of a multistatus (RFC 4918 §14.24): the resource's href, either a status for
/// the whole resource or its properties grouped by status, and any error conditions.
struct DAVResponse: Sendable, Equatable {
    /// The hrefs, as the server wrote them (usually one).
    var hrefs: [String]
    /// The status of the whole resource (`404` for a member removed since a sync token, `507`
    /// for a truncated sync), or `nil` when the response gives properties instead.
    var status: Int?
    /// The properties the server found or did not, by status.
    var propstats: [DAVPropstat]
    /// The names inside the response's `error` element (preconditions such as
    /// `number-of-matches-within-limits`).
    var errors: [XMLName]

    /// The property `name` if a 2xx propstat holds it.
    func property(_ name: XMLName) -> XMLTree? {
        for propstat in propstats where (200..<300).contains(propstat.status) {
            if let found = propstat.properties.first(where: { $0.name == name }) { return found }
        }
        return nil
    }

    /// The text of the property `name`, trimmed, if a 2xx propstat holds it.
    func text(_ name: XMLName) -> String? {
        property(name)?.trimmedText
    }

    /// The hrefs inside the property `name` (for `current-user-principal`, `addressbook-home-set`).
    func hrefs(in name: XMLName) -> [String] {
        property(name)?.children(.dav("href")).map(\.trimmedText).filter { !$0.isEmpty } ?? []
    }

    /// The names inside the `resourcetype` property (`collection`, `addressbook`, `principal`).
    var resourceTypes: Set<XMLName> {
        Set(property(.dav("resourcetype"))?.children.map(\.name) ?? [])
    }
}

/// The properties of one status within a ``DAVResponse``.
struct DAVPropstat: Sendable, Equatable {
    /// The status, for example 200 or 404.
    var status: Int
    /// The property elements.
    var properties: [XMLTree]
}

/// Reads multistatus bodies one response at a time (see ``XMLDocumentReader``).
enum MultistatusReader {
    /// What a multistatus held besides its responses.
    struct Summary: Sendable, Equatable {
        /// The `sync-token` of a `sync-collection` answer.
        var syncToken: String?
        /// How many responses were read.
        var responses: Int
    }

    /// What went wrong: the XML itself, or a document that is not a multistatus.
    enum Problem: Error, Equatable {
        case xml(XMLFailure)
        case notMultistatus(XMLName)
        case response(String)
    }

    /// Reads `data` as a `DAV:multistatus`, calling `each` with every response in order.
    ///
    /// - Throws: ``Problem`` for bodies that are not a multistatus, and whatever `each` throws.
    static func read(
        _ data: Data, limits: XMLLimits, each: (DAVResponse) throws -> Void
    ) throws -> Summary {
        var summary = Summary(syncToken: nil, responses: 0)
        do {
            try XMLDocumentReader.read(
                data, limits: limits,
                root: { name in
                    if name != .dav("multistatus") { throw Problem.notMultistatus(name) }
                },
                child: { element in
                    switch element.name {
                    case .dav("response"):
                        summary.responses += 1
                        try each(try response(from: element))
                    case .dav("sync-token"):
                        summary.syncToken = element.trimmedText
                    default:
                        break  // responsedescription, and extensions
                    }
                })
        } catch let failure as XMLFailure {
            throw Problem.xml(failure)
        }
        return summary
    }

    /// The ``DAVResponse`` in a `response` element.
    static func response(from element: XMLTree) throws -> DAVResponse {
        let hrefs = element.children(.dav("href")).map(\.trimmedText).filter { !$0.isEmpty }
        guard !hrefs.isEmpty else { throw Problem.response("a response without an href") }
        var propstats: [DAVPropstat] = []
        for propstat in element.children(.dav("propstat")) {
            guard let status = propstat.child(.dav("status")).flatMap({ statusCode(in: $0.text) }) else {
                throw Problem.response("a propstat without a status")
            }
            propstats.append(DAVPropstat(status: status, properties: propstat.child(.dav("prop"))?.children ?? []))
        }
        let status = element.child(.dav("status")).flatMap { statusCode(in: $0.text) }
        if status == nil && propstats.isEmpty {
            throw Problem.response("a response with neither a status nor properties")
        }
        return DAVResponse(
            hrefs: hrefs, status: status, propstats: propstats,
            errors: element.child(.dav("error"))?.children.map(\.name) ?? [])
    }

    /// The code in a status line such as `HTTP/1.1 404 Not Found`.
    static func statusCode(in line: String) -> Int? {
        let parts = line.utf8.split(maxSplits: 2, omittingEmptySubsequences: true, whereSeparator: XMLScanner.isSpace)
        guard parts.count >= 2, String(decoding: parts[0].prefix(5), as: UTF8.self).uppercased() == "HTTP/",
            parts[1].count == 3, parts[1].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        let code = parts[1].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (100..<600).contains(code) ? code : nil
    }

    /// The condition names in a `DAV:error` body (`valid-sync-token`…); empty for any other body.
    static func errorConditions(in data: Data, limits: XMLLimits) -> [XMLName] {
        guard !data.isEmpty, let tree = try? XMLDocumentReader.tree(data, limits: limits),
            tree.name == .dav("error")
        else { return [] }
        return tree.children.map(\.name)
    }
}
