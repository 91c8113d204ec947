import AsyncAlgorithms
public import CardModels
public import Foundation
import Networking

extension CardDAVClient {
    /// Reads the cards at `hrefs` with `addressbook-multiget`, in batches of
    /// ``CardDAVConfiguration/multigetBatchSize``, handing each batch over in order. The next
    /// batch is asked for while `handle` works on this one, so the server's time and ours
    /// overlap; memory holds two batches of cards at most, photos included.
    ///
    /// - Parameters:
    ///   - hrefs: the cards' paths (from a sync); duplicates are asked once.
    ///   - book: the address book they are in.
    ///   - handle: called with each batch's cards and the hrefs the server did not have.
    /// - Throws: ``CardDAVError``, or what `handle` throws.
    public func multiget(
        _ hrefs: [String], in book: AddressBook, batches handle: (MultigetResult) async throws -> Void
    ) async throws {
        try await multiget(hrefs, in: book, reading: { $0 }, batches: handle)
    }

    /// ``multiget(_:in:batches:)`` with each batch turned into what the caller keeps by `read`.
    ///
    /// Three stages run at once, each in its own task, handing batches on in order through
    /// channels that wait for the next stage to take them: the requests (the next one is sent
    /// as soon as an answer is in, while that answer waits to be taken), the parsing and `read`,
    /// and `handle` (the caller's storing). So the server's time, the parsing and the storing
    /// overlap, and memory holds about four batches, whatever the number of cards.
    ///
    /// - Throws: ``CardDAVError``, or what `read` or `handle` throw.
    public func multiget<Batch: Sendable>(
        _ hrefs: [String], in book: AddressBook, reading read: @escaping @Sendable (MultigetResult) throws -> Batch,
        batches handle: (Batch) async throws -> Void
    ) async throws {
        var seen = Set<String>()
        var paths: [String] = []
        for href in hrefs {
            let path = try Href.plainAbsolutePath(href) ?? Href.path(of: url(of: href))
            if seen.insert(path).inserted { paths.append(path) }
        }
        seen = []  // not held through the reads: a first sync's paths number thousands
        let size = configuration.multigetBatchSize
        let batches = stride(from: 0, to: paths.count, by: size).map { Array(paths[$0..<min($0 + size, paths.count)]) }
        paths = []
        let answers = AsyncThrowingChannel<(Response, [String]), any Error>()
        let readBatches = AsyncThrowingChannel<Batch, any Error>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The next request is sent as soon as an answer is in, before that answer is
                // handed on: the server never waits for our parsing to take it.
                func ask(_ index: Int) -> Task<Response, any Error>? {
                    guard index < batches.count else { return nil }
                    let batch = batches[index]
                    return Task { try await multigetAnswer(batch, in: book) }
                }
                var pending = ask(0)
                defer { pending?.cancel() }
                do {
                    for (index, batch) in batches.enumerated() {
                        guard let current = pending else { break }
                        let answer = try await withTaskCancellationHandler {
                            try await current.value
                        } onCancel: {
                            current.cancel()
                        }
                        pending = ask(index + 1)
                        await answers.send((answer, batch))
                    }
                    answers.finish()
                } catch {
                    answers.fail(error)
                }
            }
            group.addTask {
                do {
                    for try await (response, batch) in answers {
                        await readBatches.send(try read(try multigetResult(of: response, asked: batch)))
                    }
                    readBatches.finish()
                } catch {
                    readBatches.fail(error)
                }
            }
            for try await batch in readBatches {
                try await handle(batch)
            }
            try await group.waitForAll()
        }
    }

    /// Reads the cards at `hrefs`, all of them, in batches (see
    /// ``multiget(_:in:batches:)`` to handle one batch at a time).
    ///
    /// - Throws: ``CardDAVError``.
    public func multiget(_ hrefs: [String], in book: AddressBook) async throws(CardDAVError) -> MultigetResult {
        var result = MultigetResult()
        do {
            try await multiget(hrefs, in: book) { batch in
                result.found += batch.found
                result.missing += batch.missing
            }
        } catch let error as CardDAVError {
            throw error
        } catch {
            throw .invalidRequest(String(describing: error))
        }
        return result
    }

    /// One `addressbook-multiget` of `paths`, its answer not yet read.
    private func multigetAnswer(_ paths: [String], in book: AddressBook) async throws(CardDAVError) -> Response {
        let response = try await exchange(
            .multiget(hrefs: paths, properties: [.dav("getetag"), .dav("getlastmodified"), .cardDAV("address-data")]),
            to: book.url)
        guard (200..<300).contains(response.statusCode) else { throw DAVErrors.status(response) }
        return response
    }

    /// What a multiget's answer holds of the `paths` it asked for.
    private func multigetResult(of response: Response, asked paths: [String]) throws(CardDAVError) -> MultigetResult {
        let asked = Set(paths)
        var answered = Set<String>()
        var result = MultigetResult()
        do {
            _ = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                for href in entry.hrefs {
                    let path = try path(ofHref: href, in: response)
                    guard asked.contains(path), answered.insert(path).inserted else { continue }
                    if let data = entry.property(.cardDAV("address-data")), entry.status.map({ $0 < 300 }) ?? true {
                        result.found.append(
                            DAVResource(
                                href: path, etag: entry.text(.dav("getetag")), vcard: data.text,
                                lastModified: DAVResource.date(http: entry.text(.dav("getlastmodified")))))
                    } else {
                        result.missing.append(path)
                    }
                }
            }
        } catch {
            throw DAVErrors.reading(error, in: response)
        }
        // A server may leave out what it does not have instead of answering 404 for it.
        result.missing += paths.filter { !answered.contains($0) }
        return result
    }

    /// Reads one card with `GET`, as the server stores it (its bytes, its ETag).
    ///
    /// - Throws: ``CardDAVError``; ``CardDAVError/isNotFound`` when it is gone.
    public func get(_ href: String) async throws(CardDAVError) -> DAVResource {
        let url = try url(of: href)
        let response = try await exchange(.get, to: url)
        guard (200..<300).contains(response.statusCode) else { throw DAVErrors.status(response) }
        return DAVResource(
            href: Href.path(of: url), etag: response.headers["ETag"], vcard: response.text,
            lastModified: DAVResource.date(http: response.headers["Last-Modified"]))
    }

    /// The picture at `url` (a card's `PHOTO` given by URI): PNG or JPEG, at most
    /// `maximumBytes`. Asked for on the server's own origin only, like every request of this
    /// client: a link elsewhere is ``CardDAVError/foreignLocation(server:location:)`` and never
    /// sent.
    public func picture(at url: URL, maximumBytes: Int) async throws(CardDAVError) -> (
        bytes: [UInt8], format: CardImageFormat
    ) {
        let response = try await exchange(.get, to: url)
        guard (200..<300).contains(response.statusCode) else { throw DAVErrors.status(response) }
        let request = "GET \(Href.path(of: url))"
        guard response.body.count <= maximumBytes else {
            throw .badAnswer(
                request: request, status: response.statusCode,
                detail: "the picture is \(response.body.count) bytes, over the wallet's \(maximumBytes)")
        }
        let bytes = [UInt8](response.body)
        guard let format = CardImageFormat(sniffing: bytes) else {
            throw .badAnswer(request: request, status: response.statusCode, detail: "the picture is not a PNG or JPEG")
        }
        return (bytes, format)
    }

    /// Creates a card named `<key>.vcf` in `book`, only if no card has that name
    /// (`If-None-Match: *`).
    ///
    /// - Parameters:
    ///   - vcard: the vCard text, sent as it is.
    ///   - key: the resource name's stem (letters, digits, `-`, `_`, `.`, `@`, `+`; 1–200, not
    ///     starting with `.`): a UUID, say.
    ///   - book: the address book.
    ///   - readBack: whether to read the stored card back even when the server gave an ETag.
    /// - Returns: where it is and its ETag; with the stored text when it was read back (the
    ///   answer had no ETag, or `readBack`).
    /// - Throws: ``CardDAVError``; ``CardDAVError/isConflict`` when the name is taken.
    public func create(
        _ vcard: String, key: String, in book: AddressBook, readBack: Bool = false
    ) async throws(CardDAVError) -> StoredCard {
        guard Self.isResourceKey(key) else {
            throw .invalidRequest(
                "“\(key)” cannot name a card on the server (use letters, digits, -, _, ., @ and +, at most 200).")
        }
        let folder = book.href.hasSuffix("/") ? book.href : book.href + "/"
        return try await put(vcard, at: try url(of: folder + key + ".vcf"), precondition: .create, readBack: readBack)
    }

    /// Replaces the card at `href`, only if it still has `etag` (`If-Match`).
    ///
    /// - Throws: ``CardDAVError``; ``CardDAVError/isConflict`` when it changed since it was
    ///   read, ``CardDAVError/isNotFound`` when it is gone.
    public func update(
        _ href: String, vcard: String, etag: String, readBack: Bool = false
    ) async throws(CardDAVError) -> StoredCard {
        try await put(vcard, at: try url(of: href), precondition: .ifMatch(etag), readBack: readBack)
    }

    /// Deletes the card at `href`, only if it still has `etag` when one is given (`If-Match`).
    ///
    /// - Throws: ``CardDAVError``; ``CardDAVError/isConflict`` when it changed since it was
    ///   read, ``CardDAVError/isNotFound`` when it is gone already.
    public func delete(_ href: String, etag: String?) async throws(CardDAVError) {
        let response = try await exchange(.delete(etag: etag), to: try url(of: href))
        guard (200..<300).contains(response.statusCode) else { throw DAVErrors.status(response) }
    }

    private func put(
        _ vcard: String, at url: URL, precondition: WritePrecondition, readBack: Bool
    ) async throws(CardDAVError) -> StoredCard {
        let response = try await exchange(.put(vcard: Data(vcard.utf8), precondition: precondition), to: url)
        guard (200..<300).contains(response.statusCode) else { throw DAVErrors.status(response) }
        var stored = Href.path(of: url)
        // A server may store a new card elsewhere and say where (RFC 4918 §9.7.2 allows it).
        if let location = response.headers["Location"] { stored = try path(ofHref: location, in: response) }
        let etag = response.headers["ETag"]
        guard etag == nil || readBack else { return StoredCard(href: stored, etag: etag) }
        // No ETag: the server changed what it stores (RFC 6352 §6.3.2.3), so read what it has.
        let current = try await get(stored)
        return StoredCard(href: stored, etag: current.etag, vcard: current.vcard)
    }

    /// Whether `key` can be a resource name's stem: one path segment that needs no escaping.
    static func isResourceKey(_ key: String) -> Bool {
        guard (1...200).contains(key.utf8.count), !key.hasPrefix(".") else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "@"), UInt8(ascii: "+"):
                true
            default: false
            }
        }
    }
}
