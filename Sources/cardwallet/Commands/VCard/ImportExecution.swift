import CardAPI
import CardModels
import CardVCard
import Foundation

/// Carries out an import plan, card by card, in input order. A card the server refuses (E01,
/// a conflict, a card deleted meanwhile) is skipped with its reason and the others go on; a
/// failure that stops everything (log in first, the network) ends the run after saying how
/// far it got.
struct ImportExecution {
    let client: CardAPIClient
    let plan: ImportPlan

    /// Runs the plan.
    func run() async throws -> ImportOutcome {
        var outcome = ImportOutcome()
        let photos = try PhotoFiles()
        defer { photos.remove() }
        let progress = Progress("importing cards", minimum: 50)
        defer { progress.finish() }
        let total = plan.entries.count
        for (index, entry) in plan.entries.enumerated() {
            progress.update(index, of: total)
            do {
                switch entry.action {
                case .create(let card):
                    let created: Card
                    if let photo = card.photo {
                        created = try await client.createCard(card.fields, imageAt: try photos.write(photo))
                    } else {
                        created = try await client.createCard(card.fields)
                    }
                    outcome.add(entry, "created", id: created.id)
                case .update(let id, let version, let fields, let photo):
                    var current = version
                    if let fields {
                        current = try await client.updateCard(id: id, fields: fields, version: version).version
                    }
                    if let photo {
                        do {
                            try await replacePhoto(of: id, version: current, photo: photo, files: photos)
                        } catch let error as CardAPIError where fields != nil && !Self.stopsEverything(error) {
                            // Two requests: say exactly which one did not go through.
                            outcome.add(
                                entry, "skipped", id: id,
                                problem: "the fields were updated, but the server refused the photo: "
                                    + error.description)
                            continue
                        }
                    }
                    outcome.add(entry, "updated", id: id, changes: ImportOutcome.changes(fields, photo))
                case .unchanged(let id):
                    outcome.add(entry, "unchanged", id: id)
                case .skip(let problem):
                    outcome.add(entry, "skipped", problem: problem.message)
                }
            } catch let error as CardAPIError where !Self.stopsEverything(error) {
                outcome.add(entry, "skipped", problem: "the server refused the card: " + error.description)
            } catch {
                progress.finish()
                let done = outcome.counts
                Console.error("stopped after \(index) of \(total) cards (\(done.summary)).")
                throw error
            }
        }
        progress.update(total, of: total)
        return outcome
    }

    /// Replaces the image of card `id` with `photo` (`PUT /card/{id}/image`, at `version`).
    private func replacePhoto(of id: String, version: Int, photo: VCardPhoto, files: PhotoFiles) async throws {
        _ = try await client.replaceImage(id: id, version: version, imageAt: try files.write(photo))
    }

    /// Failures after which no other card can do better.
    static func stopsEverything(_ error: CardAPIError) -> Bool {
        if error.requiresLogin || error.isNetworkFailure { return true }
        switch error {
        case .cancelled, .multipleAccounts, .tokenStore, .excessiveRefresh: return true
        default: return error.errorCode == .tooManyRequests || error.isUnknownEndpoint
        }
    }
}

/// Photos written to a private folder for the upload (the client streams images from files),
/// removed afterwards.
struct PhotoFiles {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardwallet-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `photo` and returns its file.
    func write(_ photo: VCardPhoto) throws -> URL {
        let url = folder.appendingPathComponent("photo." + (photo.format == .png ? "png" : "jpg"))
        try Data(photo.bytes).write(to: url)
        return url
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
