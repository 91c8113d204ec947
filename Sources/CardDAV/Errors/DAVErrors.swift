import Foundation
import Networking
import OAuth

/// The one place that turns failed exchanges and unusable answers into ``CardDAVError``s, with
/// server text scrubbed of the request's credentials and cut short. The switch over what the
/// networking core threw is Networking's (``Networking/NetworkErrorTranslator``, shared with the
/// card API's `ResponseJudge`); what each case means to CardDAV is here.
enum DAVErrors {
    /// The error for a failure with no usable answer.
    static func error(from error: NetworkError, server: String) -> CardDAVError {
        Translator(server: server).translate(error)
    }

    /// What each of the networking core's failures means to CardDAV.
    struct Translator: NetworkErrorTranslator {
        let server: String

        func status(_ response: Response) -> CardDAVError { DAVErrors.status(response) }

        func cannotConnect(_ failure: TransportFailure, reason: String) -> CardDAVError {
            .cannotConnect(server: server, endpoint: failure.endpoint, reason: reason)
        }

        func timedOut(_ failure: TransportFailure) -> CardDAVError {
            .timedOut(url: failure.url, reason: failure.reason)
        }

        func connectionFailed(_ failure: TransportFailure) -> CardDAVError {
            .connectionFailed(url: failure.url, reason: failure.reason)
        }

        func decoding(_ failure: DecodingFailure) -> CardDAVError { DAVErrors.status(failure.response) }

        func interceptor(_ error: any Error) -> CardDAVError {
            switch error {
            case let error as CardDAVError: error
            case let error as OAuthError: error == .cancelled ? .cancelled : .authorization(error)
            case is CancellationError: .cancelled
            default: .invalidRequest(String(describing: error))
            }
        }

        func invalidRequest(_ message: String) -> CardDAVError { .invalidRequest(message) }
        var cancelled: CardDAVError { .cancelled }
    }

    /// The error for an answer whose status the caller did not expect: 401, 403, 404/410, 412
    /// by their meaning, anything else as a server failure with what the server said.
    static func status(_ response: Response) -> CardDAVError {
        let url = Redaction.default.redact(url: response.request.url)
        switch response.statusCode {
        case 401:
            let server = ServerOrigin(response.request.url)?.description ?? url
            return .credentialRefused(server: server, user: user(of: response.request) ?? "")
        case 403: return .forbidden(request: name(of: response.request))
        case 404, 410: return .notFound(url: url)
        case 412: return .conflict(url: url)
        default:
            return .serverFailure(
                request: name(of: response.request), status: response.statusCode, detail: excerpt(of: response))
        }
    }

    /// A success status whose body cannot be used.
    static func badAnswer(_ response: Response, _ detail: String) -> CardDAVError {
        .badAnswer(
            request: name(of: response.request), status: response.statusCode,
            detail: Redaction.scrub(detail, hiding: BasicAuthInterceptor.secrets(of: response.request)))
    }

    /// The error for a body the multistatus reader refused.
    static func badAnswer(_ response: Response, _ problem: MultistatusReader.Problem) -> CardDAVError {
        switch problem {
        case .xml(let failure):
            return badAnswer(response, "the XML was refused: \(failure)")
        case .notMultistatus(let name):
            return badAnswer(response, "it is \(name.description), not a DAV multistatus")
        case .response(let what):
            return badAnswer(response, "it holds \(what)")
        }
    }

    /// Maps any error thrown while reading an answer.
    static func reading(_ error: any Error, in response: Response) -> CardDAVError {
        switch error {
        case let error as CardDAVError: error
        case let problem as MultistatusReader.Problem: badAnswer(response, problem)
        case let failure as XMLFailure: badAnswer(response, "the XML was refused: \(failure)")
        default: badAnswer(response, String(describing: error))
        }
    }

    /// `PROPFIND /alice/contacts/`.
    static func name(of request: Request) -> String { "\(request.method) \(request.path)" }

    /// What the server said, for a message: the conditions of a `DAV:error` body, or the start
    /// of its text with white space folded, scrubbed of the request's secrets.
    static func excerpt(of response: Response) -> String {
        let conditions = MultistatusReader.errorConditions(in: response.body, limits: XMLLimits())
        var text: String
        if !conditions.isEmpty {
            text = conditions.map(\.local).joined(separator: ", ")
        } else {
            let body = String(decoding: response.body.prefix(2_000), as: UTF8.self)
            text = body.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        text = Redaction.scrub(text, hiding: BasicAuthInterceptor.secrets(of: response.request))
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// The user name in a request's Basic credentials.
    private static func user(of request: Request) -> String? {
        guard let value = request.headers["Authorization"], value.hasPrefix("Basic "),
            let data = Data(base64Encoded: String(value.dropFirst(6)))
        else { return nil }
        let decoded = String(decoding: data, as: UTF8.self)
        return decoded.firstIndex(of: ":").map { String(decoded[..<$0]) }
    }
}
