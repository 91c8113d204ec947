import DomainNames

/// What a host name may end in: the top-level domains (`com`, `law`, `photography`, `kr`) and
/// the endings of more labels under which names are registered (`co.kr`, `com.au`, `co.jp`),
/// from the Public Suffix List that Debian ships in its `publicsuffix` package, read by the one
/// reader of that list (`DomainNames`' `PublicSuffixList`, which the CardDAV client uses too).
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
    /// The list, read by the one reader of it (`DomainNames`); `nil` for the built-in endings.
    private let list: PublicSuffixList?
    /// The built-in list's top-level domains (empty for the file's).
    private let builtInTopLevel: Set<String>
    /// The built-in list's rule for countries: any two letters are a country's top-level
    /// domain, and these names under one are endings (`co.kr`, `or.jp`); `nil` for the file.
    private let countrySecondLevel: Set<String>?

    /// Where Debian's `publicsuffix` package puts the list.
    public static let debianPath = PublicSuffixList.debianPath
    /// An environment variable naming another copy of the list (another system's path, or a
    /// missing file to try the built-in list).
    public static let pathVariable = PublicSuffixList.pathVariable

    /// The endings every scan uses: the list at ``pathVariable``'s path when it is set, else at
    /// ``debianPath``, read at the first use and kept for the rest of the process.
    public static let system: DomainEndings = {
        switch PublicSuffixList.system {
        case .success(let list): DomainEndings(list)
        case .failure(let failure): builtIn(reason: failure.description)
        }
    }()

    /// The endings the list at `path` holds, or the built-in ones (with the reason) when the
    /// file cannot be read or holds no ICANN rules. Never fails.
    public static func load(path: String) -> DomainEndings {
        switch PublicSuffixList.load(path: path) {
        case .success(let list): DomainEndings(list)
        case .failure(let failure): builtIn(reason: failure.description)
        }
    }

    /// The endings of a Public Suffix List's ICANN section (the names registries hand out;
    /// the private section's `github.io`, `blogspot.com` are names registered under those,
    /// which a scan takes as a host like any other), or `nil` when the text holds fewer than
    /// 100 top-level domains there.
    public init?(publicSuffixList text: String, path: String) {
        guard let list = PublicSuffixList(text: text, path: path) else { return nil }
        self.init(list)
    }

    private init(_ list: PublicSuffixList) {
        source = .publicSuffixList(path: list.path)
        self.list = list
        builtInTopLevel = []
        countrySecondLevel = nil
    }

    private init(builtIn reason: String) {
        source = .builtIn(reason: reason)
        list = nil
        builtInTopLevel = ScanRules.fallbackTopLevelDomains
        countrySecondLevel = ScanRules.fallbackSecondLevelDomains
    }

    /// The small list used without the file: ``ScanRules/fallbackTopLevelDomains``, any two
    /// letters as a country's domain, and ``ScanRules/fallbackSecondLevelDomains`` under one.
    public static func builtIn(reason: String) -> DomainEndings {
        DomainEndings(builtIn: reason)
    }

    /// How many top-level domains it knows (two-letter country codes aside for the built-in
    /// list, which takes any two letters).
    public var topLevelCount: Int { list?.topLevelDomains.count ?? builtInTopLevel.count }

    /// Whether `label` is a top-level domain (case aside).
    public func isTopLevel(_ label: some StringProtocol) -> Bool {
        let lower = label.lowercased()
        if let list { return list.topLevelDomains.contains(lower) }
        if builtInTopLevel.contains(lower) { return true }
        return lower.count == 2 && lower.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// How many of the host's last labels make its ending, by the list's longest matching rule
    /// (`acme.co.kr` → 2, `acme.law` → 1), or `nil` when its top-level domain is unknown.
    public func endingLabelCount(of host: String) -> Int? {
        if let list { return list.suffixLabelCount(of: host, sections: [.icann]) }
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = labels.last, isTopLevel(last) else { return nil }
        guard labels.count >= 2 else { return 1 }
        for count in stride(from: labels.count, through: 2, by: -1) {
            let tail = labels.suffix(count).joined(separator: ".")
            if builtInTopLevel.contains(tail) { return count }
            if count == 2, let second = countrySecondLevel, last.count == 2, second.contains(labels[labels.count - 2]) {
                return 2
            }
        }
        return 1
    }
}
