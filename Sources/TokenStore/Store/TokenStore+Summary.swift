import Foundation

extension TokenStore {
    /// One honest line for `cardwallet status` about where and how tokens are kept, e.g.
    /// `tokens stored in /home/u/.local/state/cardwallet/tokens.json (plain file, mode 0600, not encrypted)`.
    ///
    /// It looks at the file (without reading it): a missing file, a file with a wrong mode or
    /// owner, or something that is not a file is described as such. It never shows a token.
    ///
    /// - Parameter noun: what the file keeps for the account (`tokens`; `the account` for one
    ///   whose password lives elsewhere, in the keyring or a command).
    public func storageSummary(holding noun: String = "tokens") -> String {
        let location = Quoting.display(path)
        let status: FileStatus?
        do {
            status = try POSIX.status(atPath: path, followLinks: false)
        } catch {
            return "\(noun) would be kept in \(location), which cannot be inspected: \(error)"
        }
        var problem: TokenStoreError?
        do {
            try checkSafety()
        } catch {
            problem = error
        }
        guard let status else {
            let nothing = noun == "tokens" ? "no tokens stored; they" : "nothing stored; \(noun)"
            let summary = "\(nothing) would be kept in \(location) (plain file, mode 0600, not encrypted)"
            return problem.map { summary + "; it will be refused: \($0)" } ?? summary
        }
        guard status.kind == .regular else {
            // Say what is there, not "plain file": a symbolic link's own mode means nothing.
            return "no usable token file: " + (problem.map { "\($0)" } ?? "\(location) is \(status.kind.phrase)")
        }
        let summary =
            "\(noun) stored in \(location) (plain file, mode \(Quoting.octal(status.permissions)), not encrypted)"
        return problem.map { summary + "; it will be refused: \($0)" } ?? summary
    }
}
