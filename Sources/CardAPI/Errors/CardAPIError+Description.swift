import CardAPIContract
import CardBackend
import CardModels
public import Foundation
import Networking
import TokenStore

extension ServerError: CustomStringConvertible {
    /// What the server refused and what to do about it, with its message quoted.
    public var description: String {
        guard let code else {
            return message + " That is not the card API's JSON: check the server address."
        }
        let said = message.isEmpty ? "" : " The server said: “\(message)”"
        let what: String
        switch code {
        case .badRequest where isUnknownEndpoint:
            return "The server has no such endpoint as \(request) (404 E01), so the server address is "
                + "probably not the card API's base URL: it usually ends in /v1, e.g. \(Self.exampleBaseURL).\(said)"
        case .badRequest:
            let problems = fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let list = problems.isEmpty ? "" : " Problems: " + problems.joined(separator: "; ") + "."
            return "The server refused \(request) as invalid (E01).\(list)\(said)"
        case .payloadTooLarge:
            what =
                "The upload is too large (E08). Card images may be at most \(ByteText.format(CardLimits.imageMaxBytes))."
        case .tooManyRequests:
            let wait = retryAfter.map { "in \(Seconds.text($0))" } ?? "in a moment"
            what = "Too many requests (E10). Try again \(wait)."
        case .internalError:
            let wait = retryAfter.map { "in \(Seconds.text($0))" } ?? "later"
            what = "The server failed (E99, status \(statusCode)) on \(request). Try again \(wait)."
        default:
            if let row = code.row {
                // The contract's sentence for the code (its row of ErrorCode.table).
                what = row.advice(code.description)
            } else {
                // The code is the server's text: its description escapes control characters and
                // cuts it short, so an OSC 52 or a bidi override in it shows as text.
                what =
                    "The server answered \(statusCode) to \(request) with error code \(TerminalText.escaped(code.description)), "
                    + "which this cardwallet does not know."
            }
        }
        return what + said
    }
}

extension ServerError {
    /// The base URL the hints show.
    static let exampleBaseURL = ServerAddress.example
}

extension CardAPIError: CustomStringConvertible, LocalizedError {
    /// A sentence saying what failed and what to do about it; never contains a token or password.
    public var description: String {
        switch self {
        case .server(let error):
            return error.description
        case .cannotConnect(let server, let endpoint, let reason):
            let hint =
                reason.contains("refused")
                ? "Is the server running, and is the address right?" : "Check the address and your network."
            return "Could not connect to the card server at \(Untrusted.text(server, hiding: [])) "
                + "(\(Untrusted.text(endpoint, hiding: []))): \(Untrusted.text(reason, hiding: [])). \(hint)"
        case .timedOut(let url, let reason):
            return "The card server did not answer \(Untrusted.text(url, hiding: [])) in time "
                + "(\(Untrusted.text(reason, hiding: []))). Try again, or check the server."
        case .connectionFailed(let url, let reason):
            return "The exchange with \(Untrusted.text(url, hiding: [])) failed: "
                + "\(Untrusted.text(reason, hiding: [])). Try again."
        case .notLoggedIn(let server, let account):
            let who = account.map { " as \(Untrusted.text($0, hiding: []))" } ?? ""
            return "Not logged in\(who) at \(Untrusted.text(server, hiding: [])). Log in first."
        case .multipleAccounts(let server, let accounts):
            let list = accounts.map { Untrusted.text($0, hiding: []) }.joined(separator: ", ")
            return "Several accounts are logged in at \(Untrusted.text(server, hiding: [])) (\(list)). "
                + "Say which one to use."
        case .sessionExpired(let server, let account):
            let who = account.map { " for \(Untrusted.text($0, hiding: []))" } ?? ""
            return "The session\(who) at \(Untrusted.text(server, hiding: [])) has ended (E06): "
                + "the stored tokens were removed. Log in again."
        case .excessiveRefresh(let count, let window):
            return "The server rejected each of the last \(count) access tokens it issued before accepting a "
                + "single request made with it, so cardwallet stopped refreshing for \(Seconds.text(window)) "
                + "instead of looping. The server is not accepting the tokens it gives out: try again later, "
                + "and tell the server's operator if it goes on."
        case .tokenStore(let error):
            return error.description
        case .invalidImage(let path, let problem):
            return "Cannot upload \(Untrusted.text(path, hiding: [])): \(problem). Choose a PNG or JPEG file "
                + "of at most \(ByteText.format(CardLimits.imageMaxBytes)); nothing was sent."
        case .invalidCardID(let text):
            return "No such card: “\(Untrusted.text(text, hiding: [], limit: 80))” is not a card id "
                + "(ids are letters, digits, - and _, at most 64 characters)."
        case .invalidServerURL(let text):
            return ServerAddressError(.invalid(text)).description
        case .insecureServer(let server):
            return ServerAddressError(.insecure(server)).description
        case .invalidRequest(let message):
            return message
        case .unexpectedResponse(let response):
            return "The server's answer to \(response.request) (status \(response.statusCode)) is not the "
                + "\(response.expected) the card API promises: \(response.detail) Check the server address."
        case .cancelled:
            return "The request was cancelled."
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}

/// Durations as people read them: `30 s`, `1.5 s`.
enum Seconds {
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
