public import Foundation
import OAuth
import TextSafety

extension CardDAVError: CustomStringConvertible, LocalizedError {
    /// A sentence saying what failed and what to do; never the password, always terminal-safe.
    public var description: String {
        switch self {
        case .cannotConnect(let server, let endpoint, let reason):
            let hint =
                reason.contains("refused")
                ? "Is the server running, and is the address right?" : "Check the address and your network."
            return "Could not connect to the CardDAV server at \(Shown.text(server)) (\(Shown.text(endpoint))): "
                + "\(Shown.text(reason)). \(hint)"
        case .timedOut(let url, let reason):
            return "The CardDAV server did not answer \(Shown.text(url)) in time (\(Shown.text(reason))). "
                + "Try again, or check the server."
        case .connectionFailed(let url, let reason):
            return "The exchange with \(Shown.text(url)) failed: \(Shown.text(reason)). Try again."
        case .credentialRefused(let server, let user):
            return "The CardDAV server at \(Shown.text(server)) refused the password of \(Shown.text(user)) (401). "
                + "Log in again with an app password made for cardwallet in the server's settings."
        case .credentialUnavailable(let reason):
            let said = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "The CardDAV password could not be read: \(Shown.text(said)). Nothing was sent."
        case .forbidden(let request):
            return "The CardDAV server does not allow \(Shown.text(request)) for this account (403)."
        case .notFound(let url):
            return "Nothing at \(Shown.text(url)) (404): it was deleted, or the address is wrong. Sync again."
        case .conflict(let url):
            return "\(Shown.text(url)) changed on the server since it was read, or already exists (412). "
                + "Read it again, then apply the change to what the server has."
        case .insecureServer(let server):
            return "Refusing to send your password to \(Shown.text(server)) unencrypted: plain http:// is only "
                + "used for this computer (localhost, 127.0.0.1, ::1). Use the server's https:// address, or "
                + "allow plain http:// explicitly if you trust the network."
        case .invalidServerURL(let text):
            return "“\(Shown.text(text))” is not a CardDAV server address. Give one like https://dav.example.com/ "
                + "(without a user name or password in it)."
        case .foreignLocation(let server, let location):
            return "The CardDAV server at \(Shown.text(server)) points to \(Shown.text(location)), another server; "
                + "cardwallet sends your password only to the server you named, or over https to another host of "
                + "its domain, so it did not follow. If you trust that address, use it as the server instead."
        case .notCardDAV(let server):
            return "No CardDAV address book service was found at \(Shown.text(server)) (neither there nor at "
                + "/.well-known/carddav). Give the address your provider documents for CardDAV."
        case .badAnswer(let request, let status, let detail):
            return "The CardDAV server's answer to \(Shown.text(request)) (status \(status)) could not be used: "
                + "\(Shown.text(detail)). Nothing was changed."
        case .serverFailure(let request, let status, let detail):
            let said = detail.isEmpty ? "" : " The server said: “\(Shown.text(detail))”"
            return "The CardDAV server answered \(status) to \(Shown.text(request)).\(said)"
        case .invalidRequest(let message):
            return Shown.text(message, limit: 400)
        case .cancelled:
            return "The request was cancelled."
        case .authorization(let error):
            return error.description
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}

/// Text for messages: cut short, then made terminal-safe. (Secrets are scrubbed where the
/// text is made, from the request that carried them.)
enum Shown {
    static func text(_ text: String, limit: Int = 300) -> String {
        TerminalText.escaped(text.count > limit ? String(text.prefix(limit)) + "…" : text)
    }
}
