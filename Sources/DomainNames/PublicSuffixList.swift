/// The Public Suffix List (publicsuffix.org) as Debian's `publicsuffix` package ships it: the
/// endings under which names are registered, so that a host's **registrable domain** can be told
/// (`p42-contacts.icloud.com` → `icloud.com`, `a.b.co.uk` → `b.co.uk`, `alice.github.io` →
/// `alice.github.io`).
///
/// The one reader of the list, for the scanner (which asks only for the ICANN section's endings,
/// through `CardScanCore`'s `DomainEndings`) and the CardDAV client (which asks whether two hosts
/// are one registrable domain, with both sections: a private ending such as `github.io` or
/// `herokuapp.com` makes each name under it a domain of its own). Read with the C library, so
/// that the scanner's core stays free of Foundation.
public struct PublicSuffixList: Sendable {
    /// A section of the list.
    public enum Section: Sendable, Hashable, CaseIterable {
        /// The names registries hand out (`com`, `co.uk`, `kawasaki.jp`).
        case icann
        /// The endings companies hand out names under (`github.io`, `blogspot.com`).
        case privateDomains
    }

    /// Why the list could not be read, as the scanner says it: "PATH: no such file or directory",
    /// "PATH holds no ICANN section of the Public Suffix List".
    public struct LoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The sentence.
        public let description: String
    }

    /// The rules of one section.
    private struct Rules: Sendable {
        /// Rules of one label or more (`com`, `co.kr`, `kawasaki.jp`), lower-cased.
        var plain = Set<String>()
        /// Rules `*.X`, by their `X`: every name directly under `X` is an ending (`*.ck`).
        var wildcards = Set<String>()
        /// Exceptions `!X` to a wildcard, by their `X` (`www.ck` is a name, not an ending).
        var exceptions = Set<String>()
    }

    /// Where the list was read from.
    public let path: String
    /// Every top-level domain of the ICANN section, lower-cased.
    public let topLevelDomains: Set<String>
    private let icann: Rules
    private let privateDomains: Rules

    /// Where Debian's `publicsuffix` package puts the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// An environment variable naming another copy of the list (another system's path, or a
    /// missing file, to see what happens without one).
    public static let pathVariable = "CARDWALLET_PUBLIC_SUFFIX_LIST"

    /// The path of the list this process uses: ``pathVariable``'s value, else ``debianPath``.
    public static var systemPath: String { EnvironmentText.value(of: pathVariable) ?? debianPath }

    /// The list at ``systemPath``, read at the first use and kept for the rest of the process, or
    /// why it could not be read.
    public static let system: Result<PublicSuffixList, LoadFailure> = load(path: systemPath)

    /// The list at `path`, or why it cannot be used (the file missing or unreadable, or holding
    /// no ICANN section of 100 top-level domains or more).
    public static func load(path: String) -> Result<PublicSuffixList, LoadFailure> {
        switch FileText.contents(of: path, limit: 16 << 20) {
        case .failure(let problem):
            return .failure(LoadFailure(description: "\(path): \(problem)"))
        case .success(let text):
            guard let list = PublicSuffixList(text: text, path: path) else {
                return .failure(LoadFailure(description: "\(path) holds no ICANN section of the Public Suffix List"))
            }
            return .success(list)
        }
    }

    /// The list in `text` (the file's format: one rule a line, `//` comments, the sections between
    /// `===BEGIN ICANN DOMAINS===` and `===BEGIN PRIVATE DOMAINS===` markers), or `nil` when its
    /// ICANN section holds fewer than 100 top-level domains.
    public init?(text: String, path: String) {
        var icann = Rules()
        var privateDomains = Rules()
        var section: Section?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.contains("===BEGIN ICANN DOMAINS===") {
                section = .icann
            } else if line.contains("===BEGIN PRIVATE DOMAINS===") {
                section = .privateDomains
            } else if line.contains("===END ICANN DOMAINS===") || line.contains("===END PRIVATE DOMAINS===") {
                section = nil
            }
            guard let section, let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//")
            else { continue }
            let lower = rule.lowercased()
            func add(_ rules: inout Rules) {
                if lower.hasPrefix("!") {
                    rules.exceptions.insert(String(lower.dropFirst()))
                } else if lower.hasPrefix("*.") {
                    rules.wildcards.insert(String(lower.dropFirst(2)))
                } else {
                    rules.plain.insert(lower)
                }
            }
            switch section {
            case .icann: add(&icann)
            case .privateDomains: add(&privateDomains)
            }
        }
        let topLevel = Set(
            icann.plain.union(icann.wildcards).compactMap { $0.split(separator: ".").last.map(String.init) })
        guard topLevel.count >= 100 else { return nil }
        self.path = path
        self.topLevelDomains = topLevel
        self.icann = icann
        self.privateDomains = privateDomains
    }

    /// How many of the host's last labels make its ending (its public suffix), by the longest
    /// matching rule of `sections` (`acme.co.kr` → 2, `acme.law` → 1, `alice.github.io` → 1
    /// with the ICANN section alone and 2 with both), or `nil` when its top-level domain is not
    /// on the list. An exception (`!www.ck`) prevails over every other rule.
    public func suffixLabelCount(of host: String, sections: Set<Section> = [.icann]) -> Int? {
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = labels.last, topLevelDomains.contains(last) else { return nil }
        guard labels.count >= 2 else { return 1 }
        let rules = sections.map { $0 == .icann ? icann : privateDomains }
        for count in stride(from: labels.count, through: 2, by: -1) {
            let tail = labels.suffix(count).joined(separator: ".")
            if rules.contains(where: { $0.exceptions.contains(tail) }) { return count - 1 }
        }
        for count in stride(from: labels.count, through: 2, by: -1) {
            let tail = labels.suffix(count)
            let text = tail.joined(separator: ".")
            let parent = tail.dropFirst().joined(separator: ".")
            if rules.contains(where: { $0.plain.contains(text) || $0.wildcards.contains(parent) }) { return count }
        }
        return 1
    }

    /// The host's registrable domain: its public suffix (both sections) and the one label
    /// before it (`p42-contacts.icloud.com` → `icloud.com`), lower-cased, a final dot left out.
    /// `nil` for what has none: an IP address, a host whose top-level domain the list does not
    /// know (`dav.internal`), a public suffix itself (`co.uk`, `github.io`), a malformed name.
    public func registrableDomain(of host: String) -> String? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !labels.contains(where: \.isEmpty), !name.contains(":"),
            !labels.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return nil }
        guard let suffix = suffixLabelCount(of: name, sections: Set(Section.allCases)), labels.count > suffix else {
            return nil
        }
        return labels.suffix(suffix + 1).joined(separator: ".")
    }
}
