import CardAPIContract
import CardBackend
public import CardModels
public import Foundation
public import Networking

/// The card endpoints of `docs/API.md` as a ``Networking/TargetType``.
///
/// The endpoints are the cases of ``Endpoint``; the target pairs one with the server it goes
/// to, because the server is chosen at run time (`--server`, the login screen), not compiled in:
///
/// ```swift
/// let target = CardService(server: server, endpoint: .card(id: "card_abc"))
/// let response = try await provider.request(target)
/// ```
///
/// Every card endpoint needs the access token: ``CardSession``'s interceptor adds it.
public struct CardService: TargetType, AccessTokenAuthorizable {
    /// One card endpoint.
    public enum Endpoint: Sendable, Equatable {
        /// `GET /cards?offset=&limit=&q=`: one page of the wallet; `nil` leaves a parameter to the server.
        case list(offset: Int?, limit: Int?, query: String?)
        /// `GET /card/{cardId}`.
        case card(id: String)
        /// `GET /cards/whole?ids=a,b,c`: whole cards by id, at most
        /// `APIWholeCards.maximumIDs` at once.
        case wholeCards(ids: [String])
        /// `POST /card` as multipart form data: the fields as `card.<field>` parts and an
        /// optional image file, streamed from disk when sent; with an `Idempotency-Key` when
        /// given, so that sending it again makes no second card (docs/API.md).
        case create(CardFields, image: ImageFile?, idempotencyKey: IdempotencyKey? = nil)
        /// `PUT /card/{cardId}` with `If-Match: "<version>"`: replaces every editable field.
        case update(id: String, fields: CardFields, version: Int)
        /// `PUT /cards`: the whole wallet in its new order.
        case reorder([String])
        /// `DELETE /card/{cardId}`, with `If-Match` when a version is given.
        case delete(id: String, version: Int?)
        /// `GET /card/{cardId}/image`: the image bytes (not an envelope).
        case image(id: String)
        /// `PUT /card/{cardId}/image` with `If-Match: "<version>"`: the image file is the raw
        /// body, streamed from disk, with its sniffed type as `Content-Type`.
        case replaceImage(id: String, image: ImageFile, version: Int)
        /// `DELETE /card/{cardId}/image` with `If-Match: "<version>"`.
        case removeImage(id: String, version: Int)
    }

    /// The API's base URL, for example `http://127.0.0.1:8080/v1`.
    public let server: URL
    /// What to call.
    public let endpoint: Endpoint
    /// The most time the exchange may take, or `nil` for the transport's default.
    public let timeout: Duration?

    /// A card target.
    ///
    /// - Parameters:
    ///   - server: the API's base URL.
    ///   - endpoint: the endpoint.
    ///   - timeout: the most time the exchange may take; `nil` for the transport's default.
    public init(server: URL, endpoint: Endpoint, timeout: Duration? = nil) {
        self.server = server
        self.endpoint = endpoint
        self.timeout = timeout
    }

    /// The server.
    public var baseURL: URL { server }

    /// The endpoint's path below the base URL; ids are plain text (the builder percent-encodes).
    public var path: String {
        switch endpoint {
        case .list: "/cards"
        case .wholeCards: "/cards/whole"
        case .card(let id), .update(let id, _, _), .delete(let id, _): "/card/\(id)"
        case .create: "/card"
        case .reorder: "/cards"
        case .image(let id), .replaceImage(let id, _, _), .removeImage(let id, _): "/card/\(id)/image"
        }
    }

    /// `GET`, `POST`, `PUT` or `DELETE`.
    public var method: HTTPMethod {
        switch endpoint {
        case .list, .card, .image, .wholeCards: .get
        case .create: .post
        case .update, .reorder, .replaceImage: .put
        case .delete, .removeImage: .delete
        }
    }

    /// Query parameters, multipart form data or JSON, as the contract says.
    public var body: RequestBody {
        switch endpoint {
        case .list(let offset, let limit, let query):
            var parameters: Parameters = [:]
            if let offset { parameters["offset"] = .int(offset) }
            if let limit { parameters["limit"] = .int(limit) }
            if let query { parameters["q"] = .string(query) }
            return parameters.isEmpty ? .plain : .parameters(parameters, encoding: .queryString)
        case .wholeCards(let ids):
            return .parameters(["ids": .string(ids.joined(separator: ","))], encoding: .queryString)
        case .card, .delete, .image, .removeImage:
            return .plain
        case .replaceImage(_, let image, _):
            return .uploadFile(image.url, contentType: image.format.contentType)
        case .create(let fields, let image, _):
            var form = MultipartFormData()
            for (name, value) in CardForm.parts(for: fields) { form.append(value, name: name) }
            if let image {
                form.append(
                    fileAt: image.url, name: CardForm.imagePartName, fileName: image.uploadFileName,
                    mimeType: image.format.contentType)
            }
            return .multipart(form)
        case .update(_, let fields, _):
            return .json(fields, encoder: Self.encoder)
        case .reorder(let order):
            return .json(ReorderRequest(order: order), encoder: Self.encoder)
        }
    }

    /// `Accept: application/json`, plus `If-Match` for edits, image changes and versioned
    /// deletes, and `Idempotency-Key` for a create that has one.
    public var headers: Headers {
        switch endpoint {
        case .create(_, _, let key?):
            ["Accept": "application/json", IdempotencyKey.headerName: key.headerValue]
        case .update(_, _, let version), .delete(_, .some(let version)), .replaceImage(_, _, let version),
            .removeImage(_, let version):
            ["Accept": "application/json", "If-Match": EntityTag.make(version: version)]
        case .image:
            ["Accept": "image/png, image/jpeg, application/json"]
        default:
            ["Accept": "application/json"]
        }
    }

    /// Every card endpoint needs the bearer access token.
    public var authorizationType: AuthorizationType? { .bearer }

    /// The contract's JSON encoder (sorted keys, ISO 8601 dates); made once.
    static let encoder = CardWalletJSON.encoder()
}

extension CardService: CustomStringConvertible {
    /// `GET /card/{id}`-style text naming the endpoint; never a card's contents.
    public var description: String { "\(method) \(path)" }
}
