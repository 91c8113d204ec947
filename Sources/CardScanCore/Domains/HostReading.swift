/// What becomes of the host name of an email or website read on a card: the choice between
/// OCR's reading and its repairs, made with the list of domain endings.
///
/// - A host whose ending the list knows is used (`acme.law`, `mail.firm.co.jp`).
/// - A well-formed host read with high confidence is used whatever it ends in, with a note
///   when the list does not know its ending: the list is a help, not a gate.
/// - A doubtful one (read with less confidence, or with an ending no domain is spelled with,
///   such as `c0m`) whose ending the list does not know is repaired when exactly one of OCR's
///   usual misreadings in its last label gives a known ending (`acme.corn` → `acme.com`),
///   with a note; otherwise it is not used, with a note saying why.
/// - A doubtful one whose ending is known but whose last dash, read as a dot, makes a longer
///   known ending (`miraeenergy-padova.it`: `padova.it`) is taken with the dot, with a note.
enum HostReading: Sendable, Equatable {
    /// Its ending is known: used as read.
    case known(String)
    /// Sure, well formed, its ending unknown: used as read, with a note.
    case unknownEnding(String)
    /// Doubtful, its ending put right: the repaired host.
    case repaired(String, read: String)
    /// Doubtful and not repairable: not used.
    case doubtful(String)

    /// The verdict on `host`, read with `sure` confidence.
    static func judge(_ host: String, sure: Bool, hosts: HostNames) -> HostReading {
        if hosts.isComplete(host) {
            // `miraeenergy-padova.it` read doubtfully: the dash a dot makes the longer ending `padova.it`.
            if !sure, let dotted = hosts.dashAsDot(host) { return .repaired(dotted, read: host) }
            return .known(host)
        }
        // A known ending with no name before it (`co.kr`) is no host, however sure.
        guard hosts.endings.endingLabelCount(of: host) == nil else { return .doubtful(host) }
        if sure, HostNames.isWellFormed(host) { return .unknownEnding(host) }
        let repairs = hosts.endingRepairs(of: host)
        if repairs.count == 1, let repair = repairs.first { return .repaired(repair, read: host) }
        return .doubtful(host)
    }

    /// The host to use, or `nil` when it is not used.
    var usable: String? {
        switch self {
        case .known(let host), .unknownEnding(let host), .repaired(let host, _): host
        case .doubtful: nil
        }
    }
}

extension HostNames {
    /// The note for `reading`, read with `confidence`, where `value` makes the address (an
    /// email or a website as the card keeps it) from a host; `nil` when the ending was known.
    func note(for reading: HostReading, confidence: Double, value: (String) -> String) -> String? {
        let percent = Int(confidence.rounded())
        switch reading {
        case .known:
            return nil
        case .unknownEnding(let host):
            return "“\(value(host))” ends in “\(ending(of: host))”, \(unknownEnding): check it"
        case .repaired(let host, let read):
            if isComplete(read) {
                return
                    "read as “\(value(read))” (\(percent) % sure); taken as “\(value(host))”, its dash a dot, as “\(ending(of: host))” is an ending the list knows: check it"
            }
            return
                "read as “\(value(read))” (\(percent) % sure), but “\(ending(of: read))” is \(unknownEnding); taken as “\(value(host))”, one OCR slip away: check it"
        case .doubtful(let host):
            let why =
                if endings.endingLabelCount(of: host) != nil {
                    "it has no name before its ending “\(ending(of: host))”"
                } else if HostNames.isWellFormed(host) {
                    "“\(ending(of: host))” is \(unknownEnding) and it was read with only \(percent) % confidence"
                } else {
                    "“\(ending(of: host))” is spelled as no domain ending is"
                }
            return "not used: “\(value(host))” reads like an address, but \(why)"
        }
    }

    /// "not an ending the list knows", saying which list.
    private var unknownEnding: String {
        switch endings.source {
        case .publicSuffixList: "not an ending the Public Suffix List knows"
        case .builtIn(let reason): "not on the built-in list of domain endings (the Public Suffix List: \(reason))"
        }
    }
}
