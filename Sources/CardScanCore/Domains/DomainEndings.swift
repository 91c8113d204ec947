/// What a host name may end in: the top-level domains (`com`, `law`, `photography`, `kr`) and
/// the endings of more labels under which names are registered (`co.kr`, `com.au`, `co.jp`),
/// from the Public Suffix List that Debian ships in its `publicsuffix` package.
///
/// The extraction asks it only to choose between doubtful readings of an email or website and
/// to repair them (``HostReading``): an address read with high confidence is used whatever it
/// ends in. The list is read once per process (``system``); when the file is missing or
/// unreadable, a small built-in list stands in (``builtIn``) and ``source`` says why.
public struct DomainEndings: Sendable {
    /// Where the endings came from.
    public enum Source: Sendable, Equatable {
        /// The Public Suffix List at this path.
        case publicSuffixList(path: String)
        /// The built-in list, for the reason given (the file missing, unreadable, not a list).
        case builtIn(reason: String)
    }

    /// Where the endings came from.
    public let source: Source
    /// Every top-level domain, lower-cased.
    private let topLevel: Set<String>
    /// Every rule of one label or more (`com`, `co.kr`, `kawasaki.jp`), lower-cased.
    private let rules: Set<String>
    /// Rules `*.X`, by their `X`: every name directly under `X` is an ending (`*.ck`).
    private let wildcards: Set<String>
    /// Exceptions `!X` to a wildcard, by their `X` (`www.ck` is a name, not an ending).
    private let exceptions: Set<String>
    /// The built-in list's rule for countries: any two letters are a country's top-level
    /// domain, and these names under one are endings (`co.kr`, `or.jp`); `nil` for the file.
    private let countrySecondLevel: Set<String>?

    /// Where Debian's `publicsuffix` package puts the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// An environment variable naming another copy of the list (another system's path, or a
    /// missing file to try the built-in list).
    public static let pathVariable = "CARDWALLET_PUBLIC_SUFFIX_LIST"

    /// The endings every scan uses: the list at ``pathVariable``'s path when it is set, else at
    /// ``debianPath``, read at the first use and kept for the rest of the process.
    public static let system: DomainEndings = load(path: EnvironmentText.value(of: pathVariable) ?? debianPath)

    /// The endings the list at `path` holds, or the built-in ones (with the reason) when the
    /// file cannot be read or holds no ICANN rules. Never fails.
    public static func load(path: String) -> DomainEndings {
        switch FileText.contents(of: path, limit: 16 << 20) {
        case .failure(let problem):
            return builtIn(reason: "\(path): \(problem)")
        case .success(let text):
            return DomainEndings(publicSuffixList: text, path: path)
                ?? builtIn(reason: "\(path) holds no ICANN section of the Public Suffix List")
        }
    }

    /// The endings of a Public Suffix List's ICANN section (the names registries hand out;
    /// the private section's `github.io`, `blogspot.com` are names registered under those,
    /// which a scan takes as a host like any other), or `nil` when the text holds fewer than
    /// 100 top-level domains there.
    public init?(publicSuffixList text: String, path: String) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        var inICANN = false
        for line in text.split(whereSeparator: \.isNewline) {
            if line.contains("===BEGIN ICANN DOMAINS===") {
                inICANN = true
            } else if line.contains("===END ICANN DOMAINS===") {
                inICANN = false
            }
            guard inICANN, let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else {
                continue
            }
            let lower = rule.lowercased()
            if lower.hasPrefix("!") {
                exceptions.insert(String(lower.dropFirst()))
            } else if lower.hasPrefix("*.") {
                wildcards.insert(String(lower.dropFirst(2)))
            } else {
                rules.insert(lower)
            }
        }
        let topLevel = Set(rules.union(wildcards).compactMap { $0.split(separator: ".").last.map(String.init) })
        guard topLevel.count >= 100 else { return nil }
        self.init(
            source: .publicSuffixList(path: path), topLevel: topLevel, rules: rules, wildcards: wildcards,
            exceptions: exceptions, countrySecondLevel: nil)
    }

    private init(
        source: Source, topLevel: Set<String>, rules: Set<String>, wildcards: Set<String>, exceptions: Set<String>,
        countrySecondLevel: Set<String>?
    ) {
        self.source = source
        self.topLevel = topLevel
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
        self.countrySecondLevel = countrySecondLevel
    }

    /// The small list used without the file: ``ScanRules/fallbackTopLevelDomains``, any two
    /// letters as a country's domain, and ``ScanRules/fallbackSecondLevelDomains`` under one.
    public static func builtIn(reason: String) -> DomainEndings {
        DomainEndings(
            source: .builtIn(reason: reason), topLevel: ScanRules.fallbackTopLevelDomains,
            rules: ScanRules.fallbackTopLevelDomains, wildcards: [], exceptions: [],
            countrySecondLevel: ScanRules.fallbackSecondLevelDomains)
    }

    /// How many top-level domains it knows (two-letter country codes aside for the built-in
    /// list, which takes any two letters).
    public var topLevelCount: Int { topLevel.count }

    /// Whether `label` is a top-level domain (case aside).
    public func isTopLevel(_ label: some StringProtocol) -> Bool {
        let lower = label.lowercased()
        if topLevel.contains(lower) { return true }
        return countrySecondLevel != nil && lower.count == 2 && lower.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// How many of the host's last labels make its ending, by the list's longest matching rule
    /// (`acme.co.kr` → 2, `acme.law` → 1), or `nil` when its top-level domain is unknown.
    public func endingLabelCount(of host: String) -> Int? {
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = labels.last, isTopLevel(last) else { return nil }
        guard labels.count >= 2 else { return 1 }
        for count in stride(from: labels.count, through: 2, by: -1) {
            let tail = labels.suffix(count).joined(separator: ".")
            if exceptions.contains(tail) { return count - 1 }
        }
        for count in stride(from: labels.count, through: 2, by: -1) {
            let tail = labels.suffix(count)
            if rules.contains(tail.joined(separator: ".")) { return count }
            if wildcards.contains(tail.dropFirst().joined(separator: ".")) { return count }
            if count == 2, let second = countrySecondLevel, last.count == 2, second.contains(labels[labels.count - 2]) {
                return 2
            }
        }
        return 1
    }
}
