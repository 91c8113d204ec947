public import Foundation
import NIOHTTP1
import TestSupport

/// The person's browser, played by the test: it opens the authorization address, reads the
/// consent page, allows or denies as the test says, and follows the authorization server's
/// redirect to the loopback address cardwallet listens on.
public enum TestBrowser {
    /// What the person does on the consent page.
    public enum Choice: Sendable {
        /// Allows access.
        case allow
        /// Denies it (`error=access_denied` comes back).
        case deny
        /// Allows, but the redirect that reaches cardwallet carries another `state` (a forged one).
        case allowWithForgedState
    }

    /// Goes through the login at `url` as `user` and lands on the redirect; returns the loopback
    /// page's status and text.
    @discardableResult
    public static func visit(_ url: URL, user: String = "alice", choice: Choice = .allow) async throws -> (
        status: Int, page: String
    ) {
        let (status, page) = try await TestHTTP.request(url)
        guard status == 200 else {
            throw TestFailure("the authorization page answered \(status): \(String(decoding: page, as: UTF8.self))")
        }
        var form = hiddenFields(in: String(decoding: page, as: UTF8.self))
        form["user"] = user
        form["confirm"] = choice == .deny ? "deny" : "allow"
        let consent = try await TestHTTP.exchange(
            URL(string: "/authorize", relativeTo: url)!.absoluteURL, method: .POST, form: form)
        guard consent.status == 302, let location = consent.headers["location"], var redirect = URL(string: location)
        else {
            throw TestFailure("the consent answered \(consent.status) \(consent.headers)")
        }
        if choice == .allowWithForgedState,
            var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false)
        {
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged-by-someone-else") : $0
            }
            redirect = components.url ?? redirect
        }
        let landed = try await TestHTTP.request(redirect)
        return (landed.status, String(decoding: landed.body, as: UTF8.self))
    }

    /// The `name`/`value` pairs of a page's hidden inputs.
    static func hiddenFields(in page: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = page[...]
        while let start = rest.range(of: "<input type=\"hidden\" name=\"") {
            rest = rest[start.upperBound...]
            guard let nameEnd = rest.firstIndex(of: "\"") else { break }
            let name = String(rest[..<nameEnd])
            rest = rest[nameEnd...]
            guard let valueStart = rest.range(of: "value=\"") else { break }
            rest = rest[valueStart.upperBound...]
            guard let valueEnd = rest.firstIndex(of: "\"") else { break }
            fields[unescaped(name)] = unescaped(String(rest[..<valueEnd]))
            rest = rest[valueEnd...]
        }
        return fields
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
