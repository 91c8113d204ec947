import CardModels
import Foundation
import HTTPTypes
import Hummingbird

/// The card routes; every one needs an access token (see ``AuthenticationMiddleware``).
struct CardRoutes {
    typealias Context = MockServerRequestContext

    let state: ServerState
    let limits: MockServerConfiguration.Limits

    /// Longest accepted search text, in characters.
    static let maxQueryLength = 200
    /// Largest accepted `offset`.
    static let maxOffset = 1_000_000

    var routes: [RouteSpec] {
        [
            RouteSpec(.get, "cards", list),
            RouteSpec(.get, "cards/whole", whole),
            RouteSpec(.put, "cards", reorder),
            RouteSpec(.post, "card", create),
            RouteSpec(.get, "card/{cardId}", show),
            RouteSpec(.put, "card/{cardId}", update),
            RouteSpec(.delete, "card/{cardId}", delete),
            RouteSpec(.get, "card/{cardId}/image", image),
            RouteSpec(.put, "card/{cardId}/image", replaceImage),
            RouteSpec(.delete, "card/{cardId}/image", removeImage),
        ]
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        var problems: [String: String] = [:]
        let offset = Self.integer(
            query["offset"].map(String.init), default: 0, range: 0...Self.maxOffset, name: "offset", problems: &problems
        )
        let limit = Self.integer(
            query["limit"].map(String.init), default: CardPaging.defaultLimit, range: 1...CardPaging.maxLimit,
            name: "limit",
            problems: &problems)
        let text = query["q"].map(String.init) ?? ""
        if text.count > Self.maxQueryLength { problems["q"] = "must be at most \(Self.maxQueryLength) characters" }
        if text.unicodeScalars.contains("\u{0}") { problems["q"] = "must not contain NUL characters" }
        if !problems.isEmpty { throw APIError.badRequest("The query parameters are not valid.", fields: problems) }
        let page = await state.page(userID: try userID(context), offset: offset, limit: limit, query: text)
        return JSONResponse.success(page)
    }

    /// `GET /cards/whole?ids=a,b,c`: whole cards by id, in the order asked; ids with no card of
    /// the caller are listed as `missing` (never told apart from someone else's).
    @Sendable func whole(_ request: Request, context: Context) async throws -> Response {
        let text = request.uri.queryParameters["ids"].map(String.init) ?? ""
        let ids = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, ids.count <= APIWholeCards.maximumIDs else {
            throw APIError.badRequest(
                "The query parameters are not valid.",
                fields: ["ids": "must list 1 to \(APIWholeCards.maximumIDs) card ids, separated by commas"])
        }
        guard ids.allSatisfy(CardIdentifier.isWellFormed) else {
            throw APIError.badRequest("The query parameters are not valid.", fields: ["ids": "must be card ids"])
        }
        let user = try userID(context)
        var cards: [APICard] = []
        var missing: [String] = []
        var seen = Set<String>()
        for id in ids where seen.insert(id).inserted {
            if let stored = try? await state.card(userID: user, id: id) {
                cards.append(stored.card)
            } else {
                missing.append(id)
            }
        }
        return JSONResponse.success(APIWholeCards(cards: cards, missing: missing))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let stored = try await state.card(userID: try userID(context), id: cardID(context))
        return JSONResponse.success(stored.card, headers: [.eTag: stored.card.entityTag])
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let key = try Self.idempotencyKey(request)
        let upload = try await MultipartCardReader.read(request, limits: limits)
        let fields = upload.fields.normalized()
        // What the form reader found (unreadable, repeated or unknown parts) is more precise.
        let problems = fields.validate().merging(upload.problems) { _, reader in reader }
        if !problems.isEmpty { throw APIError.badRequest("The card is not valid.", fields: problems) }
        let (card, replayed) = try await state.create(
            userID: user, fields: fields, image: upload.image, idempotencyKey: key)
        var headers: HTTPFields = [.eTag: card.entityTag, .location: "\(RouteTable.basePath)/card/\(card.id)"]
        if replayed { headers[Self.idempotentReplayed] = "true" }
        return JSONResponse.success(card, status: .created, message: "Card created", headers: headers)
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let id = try cardID(context)
        _ = try await state.card(userID: user, id: id)
        let fields = try await Self.decodeFields(request, limit: limits.maxCardJSONBytes)
        let precondition = try Self.requiredPrecondition(request)
        let card = try await state.update(userID: user, id: id, fields: fields, precondition: precondition)
        return JSONResponse.success(card, message: "Card updated", headers: [.eTag: card.entityTag])
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let id = try cardID(context)
        let precondition = try request.headers[.ifMatch] == nil ? .any : Self.requiredPrecondition(request)
        try await state.delete(userID: user, id: id, precondition: precondition)
        return JSONResponse.success(EmptyPayload(), message: "Card deleted")
    }

    @Sendable func reorder(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let body = try await RequestReading.decodeJSON(ReorderRequest.self, from: request, limit: limits.maxJSONBytes)
        let order = try await state.reorder(userID: user, order: body.order)
        return JSONResponse.success(ReorderRequest(order: order), message: "Wallet reordered")
    }

    // MARK: Helpers

    func userID(_ context: Context) throws(APIError) -> String {
        guard let userID = context.userID else { throw .accessTokenInvalid("Log in first.") }
        return userID
    }

    func cardID(_ context: Context) throws(APIError) -> String {
        guard let id = context.parameters.get("cardId"), CardIdentifier.isWellFormed(id) else { throw .cardNotFound }
        return id
    }

    /// `Idempotent-Replayed: true` marks an answer given again for an `Idempotency-Key`.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!

    /// The request's `Idempotency-Key`, if it has one; E01 when it is not a key or is given twice.
    static func idempotencyKey(_ request: Request) throws(APIError) -> IdempotencyKey? {
        guard let name = HTTPField.Name(IdempotencyKey.headerName) else { return nil }
        let values = request.headers[values: name]
        guard let value = values.first else { return nil }
        guard values.count == 1, let key = IdempotencyKey(headerValue: value) else { throw .badIdempotencyKey }
        return key
    }

    /// The `If-Match` a change needs: 428 E01 when it is missing, E01 when it holds no entity tag.
    static func requiredPrecondition(_ request: Request) throws(APIError) -> VersionPrecondition {
        guard let header = request.headers[.ifMatch] else {
            throw .badRequest(
                status: .preconditionRequired,
                "Send If-Match with the card's ETag (e.g. If-Match: \"3\") so no one's changes are lost.",
                fields: ["If-Match": "is required"])
        }
        guard let precondition = VersionPrecondition(ifMatch: header) else {
            throw .badRequest(
                "If-Match must be an entity tag such as \"3\".", fields: ["If-Match": "is not an entity tag"])
        }
        return precondition
    }

    private static func integer(
        _ text: String?, default value: Int, range: ClosedRange<Int>, name: String, problems: inout [String: String]
    ) -> Int {
        // `?offset=&limit=` (empty values) means the defaults, as if the parameters were absent.
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            problems[name] = "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
            return value
        }
        return number
    }

    /// Card fields from a JSON body: every editable field, unknown keys refused, the card's
    /// read-only keys (`id`, `version`, …) ignored so a client may send a whole card back.
    static func decodeFields(_ request: Request, limit: Int) async throws(APIError) -> CardFields {
        try RequestReading.requireJSON(request)
        let data = try await RequestReading.collectBody(request, limit: limit, what: "The JSON body")
        let keys = try RequestReading.decodeJSON(JSONObjectKeys.self, from: data).keys
        let known = Set(CardField.allCases.map(\.key)).union([CardLimits.vcardPropertiesKey]).union([
            "id", "hasImage", "image", "createdAt", "updatedAt", "version",
        ])
        var unknown: [String: String] = [:]
        for key in keys where !known.contains(key) {
            let printable = key.count <= 64 && key.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            unknown[printable ? key : "(unnamed key)"] = "is not a card field"
        }
        if !unknown.isEmpty { throw .badRequest("The body has keys that are not card fields.", fields: unknown) }
        let fields = try RequestReading.decodeJSON(CardFields.self, from: data).normalized()
        let problems = fields.validate()
        if !problems.isEmpty { throw .badRequest("The card is not valid.", fields: problems) }
        return fields
    }
}
