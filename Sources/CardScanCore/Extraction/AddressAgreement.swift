/// The card's email and website name one organisation on most cards (`jiwoo@mail.hanbitsoft.kr`
/// and `www.hanbitsoft.kr`): where the email's domain was read with a space inside, which may
/// be a space read into a name (`pureu nsoop.co.kr`) or a dot lost (`mail hanbitsoft.kr`), the
/// website chooses between the two readings.
enum AddressAgreement {
    /// The email to keep, and a note when the website chose the other reading.
    static func email(_ email: ContactHit, website: ContactHit?, hosts: HostNames) -> (String, note: String?) {
        guard let alternative = email.alternative, let website, let siteHost = host(ofWebsite: website.value),
            let siteName = hosts.registeredName(of: siteHost),
            let read = email.value.split(separator: "@").last.map(String.init),
            let other = alternative.split(separator: "@").last.map(String.init),
            hosts.registeredName(of: other) == siteName, hosts.registeredName(of: read) != siteName
        else { return (email.value, nil) }
        return (
            alternative,
            "read as “\(email.value)”; taken as “\(alternative)”, the space OCR read in its domain a dot, as the website’s “\(siteName)” says: check it"
        )
    }

    /// `https://www.acme.co.kr/team` → `www.acme.co.kr`.
    static func host(ofWebsite url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let host = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : String(host)
    }
}
