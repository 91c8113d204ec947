/// Websites: `https://…`, `www.…`, or a bare `acme.com`.
enum WebsiteReader {
    /// A website as read: its host before ``HostReading``'s choice, the rest, and the words it
    /// took.
    struct Read: Sendable, Equatable {
        /// `https://` or `http://`; empty when none was printed.
        var scheme: String
        /// The host, lower-cased.
        var host: String
        /// What follows the host (`/team`), as printed.
        var path: String
        var range: ClosedRange<Int>

        /// Whether something besides its shape says it is a website: a scheme or `www.`.
        var announced: Bool { !scheme.isEmpty || host.hasPrefix("www.") }

        /// The website as the card keeps it with `host`: `https://` added when no scheme was
        /// printed, as the card's website field requires one.
        func value(host: String) -> String { (scheme.isEmpty ? "https://" : scheme) + host + path }
    }

    /// The website starting at the word at `index`, or `nil` when the words there are not
    /// shaped as one.
    static func website(at index: Int, in tokens: [String], used: [Bool], hosts: HostNames) -> Read? {
        var text = tokens[index].replacingInnerCommas()
        var last = index
        func joinNext() -> Bool {
            guard last + 1 < tokens.count, !used[last + 1] else { return false }
            let next = tokens[last + 1].replacingInnerCommas()
            guard next.allSatisfy({ HostNames.isHostCharacter($0) || "/?#=&%_~:".contains($0) }) else { return false }
            text += next
            last += 1
            return true
        }
        var lower = text.lowercased()
        var scheme = ""
        for prefix in ["https://", "http://", "https:", "http:"] where lower.hasPrefix(prefix) {
            scheme = prefix.hasPrefix("https") ? "https://" : "http://"
            text = String(text.dropFirst(prefix.count))
            while text.hasPrefix("/") { text.removeFirst() }
            if text.isEmpty { guard joinNext() else { return nil } }
            break
        }
        lower = text.lowercased()
        // `www-acme.com`, `www,acme.com`: the dot after `www` misread.
        if lower.count > 4, lower.hasPrefix("www"), "-,_".contains(Array(lower)[3]) {
            text = "www." + text.dropFirst(4)
            lower = text.lowercased()
        }
        // `www` and the rest broken apart: `www. acme.com`, `www acme.com`.
        if lower == "www" || lower == "www." {
            guard joinNext() else { return nil }
            if !text.lowercased().hasPrefix("www.") { text = "www." + text.dropFirst(lower == "www" ? 3 : 4) }
        }
        // `acme. com`, `hanbitsoft.co. kr`.
        while text.hasSuffix("."), joinNext() {}
        // `blueharbor fr`, `acme.co kr`: the dot before the top-level domain lost.
        if last + 1 < tokens.count, !used[last + 1],
            text.contains(".") || !scheme.isEmpty || text.lowercased().hasPrefix("www"),
            hosts.belongs(tokens[last + 1].trimmed(of: "."), after: text.trimmed(of: "."))
        {
            text = text.trimmed(of: ".") + "." + tokens[last + 1].trimmed(of: ".")
            last += 1
        }
        text = text.trimmed(of: ".)>\"'(<")
        let host = hosts.repairingLastDash(String(text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }))
        let path = String(text.drop { $0 != "/" && $0 != "?" && $0 != "#" })
        guard HostNames.isHostShaped(host) else { return nil }
        let hostLower = host.lowercased()
        if scheme.isEmpty && !hostLower.hasPrefix("www.") {
            // A bare host must look like one: a first label of two or more characters, and not
            // a legal form or abbreviation with dots (`S.A.`, `e.V.`).
            // Printed in one case, as web addresses are (`Seattle.WA` is a town and a state).
            let labels = hostLower.split(separator: ".")
            guard let first = labels.first, first.count >= 2, first.contains(where: \.isLetter),
                host == hostLower || host == host.uppercased()
            else { return nil }
        }
        return Read(scheme: scheme, host: hostLower, path: path, range: index...last)
    }
}
