import CardAPIContract
import CardBackend
import CardModels
import Networking
import SessionCore

extension ResponseJudge {
    /// The token pair of a login or refresh answer, refused unless both tokens pass
    /// ``TokenSyntax``. The error names the token, never shows it.
    func grant(from response: Response) throws(CardAPIError) -> TokenGrant {
        let grant = try data(TokenGrant.self, from: response)
        for (name, token) in [("access token", grant.accessToken), ("refresh token", grant.refreshToken)]
        where !TokenSyntax.isValid(token) {
            throw .unexpectedResponse(
                UnexpectedResponse(
                    statusCode: response.statusCode, request: Self.name(of: response.request),
                    expected: "token pair",
                    detail: "its \(name) cannot be sent back in an HTTP header (a token may hold only letters, "
                        + "digits and - . _ ~ + / with = at the end, at most \(TokenSyntax.maximumLength) characters; "
                        + "this one has a line break, a space or another character outside that set, or is empty or "
                        + "too long), so cardwallet refused the tokens and stored nothing."))
        }
        return grant
    }
}
