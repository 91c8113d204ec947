public import Foundation
import NIOHTTP1
import TextSafety

extension NetworkError: CustomStringConvertible, LocalizedError {
    /// A sentence saying what failed and what to do about it; never contains a secret.
    public var description: String {
        switch self {
        case .invalidRequest(let message):
            return message
        case .transport(let failure):
            return failure.description
        case .unacceptableStatus(let response):
            let request = response.request
            let phrase = HTTPResponseStatus(statusCode: response.statusCode).reasonPhrase
            let status = phrase.isEmpty ? "\(response.statusCode)" : "\(response.statusCode) \(phrase)"
            let excerpt = Excerpt.of(response)
            let said = excerpt.isEmpty ? "" : " The server said: \(excerpt)"
            return "The server answered \(status) to \(request.method) \(request.path).\(said)"
        case .decoding(let failure):
            return failure.description
        case .interceptor(let error):
            let message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
            return TerminalText.escaped(message)
        case .cancelled:
            return "The request was cancelled."
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
