import Foundation
import Networking

/// Puts the user's Basic credentials on each attempt of a DAV request, after checking where it
/// goes: only where the ``CredentialScope`` admits (the address's own origin, or another `https`
/// host of its registrable domain, which is recorded in the ledger for the person to be told),
/// and only over `https` or to this computer unless plain `http` was allowed. A request
/// anywhere else fails before it is sent.
struct BasicAuthInterceptor: Interceptor {
    let credentials: CardDAVCredentials
    let scope: CredentialScope
    let ledger: PasswordLedger
    let allowsInsecureHTTP: Bool

    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        guard target.authorizationType == .basic else { return request }
        let verdict = scope.verdict(for: request.url)
        guard verdict != .refused, let origin = ServerOrigin(request.url) else {
            throw CardDAVError.foreignLocation(server: scope.server.description, location: request.url.absoluteString)
        }
        if origin.isInsecure && !allowsInsecureHTTP { throw CardDAVError.insecureServer(origin.description) }
        guard !credentials.user.contains(":") else {
            throw CardDAVError.invalidRequest("A CardDAV user name cannot contain “:”.")
        }
        let password: String
        do {
            password = try await credentials.password()
        } catch let error as CancellationError {
            throw error
        } catch {
            throw CardDAVError.credentialUnavailable(reason: String(describing: error))
        }
        if case .sameDomain(let host, _) = verdict { ledger.record(host) }
        var request = request
        request.headers["Authorization"] = Self.header(user: credentials.user, password: password)
        return request
    }

    /// `Basic base64(user:password)`.
    static func header(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The secrets a request's `Authorization` header holds in any form a message might quote:
    /// the header's token, the decoded `user:password`, and the password alone.
    static func secrets(of request: Request) -> [String] {
        guard let value = request.headers["Authorization"] else { return [] }
        var secrets = [value]
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return secrets }
        secrets.append(String(parts[1]))
        if let decoded = Data(base64Encoded: String(parts[1])).map({ String(decoding: $0, as: UTF8.self) }) {
            secrets.append(decoded)
            if let colon = decoded.firstIndex(of: ":") {
                secrets.append(String(decoded[decoded.index(after: colon)...]))
            }
        }
        return secrets
    }
}
