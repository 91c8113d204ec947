import CardModels
import Foundation
import Hummingbird

/// `GET`, `PUT` and `DELETE /card/{cardId}/image`: a card's image, read, replaced or removed
/// after the card was made (a re-imported vCard with a new photo, a photo taken later).
extension CardRoutes {
    @Sendable func image(_ request: Request, context: Context) async throws -> Response {
        let stored = try await state.card(userID: try userID(context), id: cardID(context))
        guard let image = stored.image else {
            throw APIError(.cardNotFound, message: "This card has no image.")
        }
        // The ETag is the card's version, and every image change makes a new version, so a
        // cache that revalidates (`no-cache`) never serves a replaced image's old bytes.
        let headers: HTTPFields = [
            .contentType: image.contentType, .eTag: stored.card.entityTag, .cacheControl: "private, no-cache",
        ]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
    }

    /// Replaces the image with the raw PNG or JPEG body.
    ///
    /// What can be judged from the headers is judged before the body is read (RFC 9110 §13.2.1
    /// evaluates preconditions before the content): a stale or missing `If-Match` never costs a
    /// 2 MiB upload. The version is checked again when the image is stored, so an edit that
    /// lands during the upload still wins with E07 for this request.
    @Sendable func replaceImage(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let id = try cardID(context)
        let current = try await state.card(userID: user, id: id)
        guard let type = RequestReading.mediaType(request), CardImageFormat(contentType: type) != nil else {
            throw APIError.unsupportedMediaType(
                "Send the image itself as the body with Content-Type: image/png or image/jpeg "
                    + "(got \(RequestReading.describe(RequestReading.mediaType(request)))).")
        }
        try RequestReading.checkDeclaredLength(request, limit: limits.maxImageBytes, what: "The image")
        let precondition = try Self.requiredPrecondition(request)
        guard precondition.allows(current.card.version) else {
            throw APIError.versionConflict(current: current.card.version)
        }
        let image = try await RequestReading.collectImage(request, limit: limits.maxImageBytes)
        let card = try await state.setImage(userID: user, id: id, image: image, precondition: precondition)
        let message = card.version == current.card.version ? "The card already has this image" : "Image replaced"
        return JSONResponse.success(card, message: message, headers: [.eTag: card.entityTag])
    }

    /// Removes the image; the card shows its avatar (`defaultImage`) again.
    @Sendable func removeImage(_ request: Request, context: Context) async throws -> Response {
        let user = try userID(context)
        let id = try cardID(context)
        let current = try await state.card(userID: user, id: id)
        let precondition = try Self.requiredPrecondition(request)
        let card = try await state.setImage(userID: user, id: id, image: nil, precondition: precondition)
        let message = card.version == current.card.version ? "The card has no image" : "Image removed"
        return JSONResponse.success(card, message: message, headers: [.eTag: card.entityTag])
    }
}
