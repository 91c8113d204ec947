public import CardAPI
public import CardImages
import CardModels
import CardVCard
public import CardWalletUI
public import Foundation
public import Networking
import Synchronization
public import TokenStore

/// Performs the UI's ``CardWalletUI/APICall``s through a ``CardAPI/CardAPIClient`` and answers
/// with an ``CardWalletUI/APIResult`` or a ``CardWalletUI/UIFailure``: the `perform` closure of
/// ``CardWalletUI/AppRunner``.
///
/// It holds the client of the server in use. Logging in to another server (the login screen's
/// server field) builds a new client through `makeClient`, which shares the transport, token
/// store and plugins, so the log pane keeps seeing every exchange; the session sink is then
/// re-pointed from the old client's session to the new one's (nothing is replayed: the new
/// session's news starts with its login).
///
/// ```swift
/// let performer = CardAPIPerformer(
///     configuration: CardAPIConfiguration(server: url), tokenStore: store,
///     transport: transport, plugins: [logger], sessionSink: sink)
/// let runner = AppRunner(state: state, backend: terminal, inbox: inbox) { await performer.perform($0) }
/// ```
public final class CardAPIPerformer: Sendable {
    /// Builds a client for a server's base URL.
    public typealias ClientFactory = @Sendable (URL) -> CardAPIClient

    private let current: Mutex<CardAPIClient>
    private let makeClient: ClientFactory
    private let sessionSink: (any SessionStateSink)?
    /// Card images for this terminal, kept in memory.
    public let pictures: PictureMaker
    private let imports = ImportRunner()
    private let scans = PhotoScan()
    /// The local cache, when the interface uses one.
    public let caches: WalletCaches?

    /// A performer starting with `client`.
    ///
    /// - Parameters:
    ///   - client: The client of the server the app starts with.
    ///   - sessionSink: Where the current client's session reports its changes.
    ///   - pictures: Makes card images ready for this terminal (half blocks unless told).
    ///   - caches: The local cache: the first frame, offline answers, E06 wipes (none unless told).
    ///   - makeClient: Builds the client of another server when the user logs in there; it
    ///     should share `client`'s transport, token store and plugins.
    public init(
        client: CardAPIClient, sessionSink: (any SessionStateSink)? = nil,
        pictures: PictureMaker = PictureMaker(graphics: GraphicsChoice(imageProtocol: .blocks)),
        caches: WalletCaches? = nil, makeClient: @escaping ClientFactory
    ) {
        self.current = Mutex(client)
        self.caches = caches
        self.pictures = pictures
        self.makeClient = makeClient
        self.sessionSink = sessionSink
        client.session.report(to: sessionSink)
    }

    /// A performer whose clients all use `tokenStore`, `transport` and `plugins`, and the rules
    /// of `configuration` (the account it names applies to its own server only).
    public convenience init(
        configuration: CardAPIConfiguration, tokenStore: TokenStore, transport: any Transport,
        plugins: [any Plugin] = [], sessionSink: (any SessionStateSink)? = nil,
        pictures: PictureMaker = PictureMaker(graphics: GraphicsChoice(imageProtocol: .blocks)),
        caches: WalletCaches? = nil
    ) {
        let first = CardAPIClient(
            configuration: configuration, tokenStore: tokenStore, transport: transport, plugins: plugins)
        self.init(client: first, sessionSink: sessionSink, pictures: pictures, caches: caches) { server in
            let other = CardAPIConfiguration(
                server: server, session: configuration.session, maximumImageBytes: configuration.maximumImageBytes,
                requestTimeout: configuration.requestTimeout, allowsInsecureHTTP: configuration.allowsInsecureHTTP)
            return CardAPIClient(configuration: other, tokenStore: tokenStore, transport: transport, plugins: plugins)
        }
    }

    /// The client in use.
    public var client: CardAPIClient { current.withLock { $0 } }

    /// The client for `server`: the current one when it is for that server, else a new one,
    /// which becomes current and reports to the session sink from now on.
    public func client(for server: URL) -> CardAPIClient {
        let key = TokenItem.normalizedServer(server.absoluteString)
        return current.withLock { current in
            if current.configuration.serverKey == key { return current }
            let client = makeClient(server)
            current.session.report(to: nil)
            client.session.report(to: sessionSink)
            current = client
            return client
        }
    }

    /// Performs `call` on the current client (or, for a login, the client of its server).
    ///
    /// - Returns: What the server answered, or why it failed. A version conflict (E07) carries
    ///   the server's current card when it could be fetched, so the form can show both.
    public func perform(_ call: APICall) async -> APIOutcome {
        await perform(call, progress: .ignoring)
    }

    /// Performs `call`, telling how far a long one (an import, an export) has got.
    public func perform(_ call: APICall, progress: ProgressReporter) async -> APIOutcome {
        // The cache's background reads wait while the person's calls run.
        caches?.filler.userCallStarted()
        defer { caches?.filler.userCallEnded() }
        let client = client
        if let local = await performLocally(call, client: client, progress: progress) { return local }
        switch call {
        case .searchCache(let query):
            guard let caches else { return .failure(UIFailure(.other, message: "no card cache")) }
            return await caches.search(query, client)
        case .resolveOfflineEdit(let entry, let keptMine):
            guard let caches else { return .failure(UIFailure(.other, message: "no card cache")) }
            return await caches.resolve(entry: entry, keptMine: keptMine, client)
        default:
            break
        }
        var conflicts: [OfflineConflict] = []
        if case .loadCards(0, _, nil) = call, let caches { conflicts = await caches.sendOutbox(client) }
        // A create's key, kept for the outbox when its answer is lost: sent again, one card.
        let key = IdempotencyKey()
        do {
            let result = try await send(call, on: client, idempotencyKey: key)
            await caches?.record(call, result, client)
            guard !conflicts.isEmpty, let caches else { return .success(result) }
            caches.delivered(conflicts)
            return .success(.withOfflineConflicts(conflicts, result))
        } catch {
            if let cached = await caches?.answer(call, after: error, client, idempotencyKey: key) { return cached }
            if error.isConflict, case .updateCard(let id, _, _) = call {
                let current = try? await client.card(id: id)
                return .failure(UIFailure(error, current: current))
            }
            return .failure(UIFailure(error))
        }
    }

    private func send(_ call: APICall, on current: CardAPIClient, idempotencyKey key: IdempotencyKey)
        async throws(CardAPIError) -> APIResult
    {
        switch call {
        case .logIn(let server, let email, let password):
            // The same rules as the command line's --server: no password in the address, and
            // plain http only to this computer unless the program was started allowing it.
            let url = try CardAPIConfiguration.serverURL(
                server, allowingInsecureHTTP: current.configuration.allowsInsecureHTTP)
            let client = client(for: url)
            let user = try await client.login(email: email, password: password)
            return .loggedIn(email: user.email, server: client.configuration.serverKey)
        case .logOut:
            let result = try await current.logout()
            // The tokens are gone either way; the UI says the server was not told.
            if let problem = result.serverProblem { throw problem }
            return .loggedOut
        case .loadCards(let offset, let limit, let query):
            return .cards(try await current.listCards(offset: offset, limit: limit, query: query))
        case .loadCard(let id):
            return .card(try await current.card(id: id))
        case .createCard(let fields, let imagePath):
            guard let path = Self.imagePath(imagePath) else {
                return .card(try await current.createCard(fields, idempotencyKey: key))
            }
            return .card(try await current.createCard(fields, imageAt: URL(fileURLWithPath: path), idempotencyKey: key))
        case .updateCard(let id, let fields, let version):
            return .card(try await current.updateCard(id: id, fields: fields, version: version))
        case .deleteCard(let id):
            // Read it first, so the delete can be undone (u); a card that cannot be read is
            // deleted all the same, without undo.
            guard let card = try? await current.card(id: id) else {
                try await current.deleteCard(id: id)
                return .deleted(id: id, backup: nil)
            }
            let image = card.hasImage ? (try? await current.cardImage(id: id))?.data : nil
            // Only the version read: what undo would bring back is what is deleted.
            try await current.deleteCard(id: id, version: card.version)
            return .deleted(id: id, backup: DeletedCard(card: card, image: image))
        case .restoreCard(let deleted):
            let card = try await current.createCard(deleted.card.fields)
            guard let image = deleted.image else { return .card(card) }
            return .card(await Self.attach(image, to: card, on: current))
        case .reorderCards(let order):
            try await current.reorderCards(order)
            return .reordered
        case .cardPicture, .filePicture, .qrCode, .vcardLines, .exportCards, .previewImport, .runImport, .scanPhoto,
            .searchCache, .resolveOfflineEdit:
            // Answered by performLocally.
            throw .invalidRequest("not a card request")
        }
    }

    /// The calls the libraries answer (pictures, QR codes, vCard, scans), with their own
    /// failures; `nil` for the card requests.
    private func performLocally(_ call: APICall, client: CardAPIClient, progress: ProgressReporter) async -> APIOutcome?
    {
        do throws(UIFailure) {
            switch call {
            case .cardPicture(let id, let version, let box):
                guard let wallet = await caches?.wallet(for: client) else {
                    return .success(
                        .picture(try await pictures.picture(id: id, version: version, box: box, client: client)))
                }
                // Through the cache: recorded by version online, from the cache offline.
                return .success(
                    .picture(
                        try await pictures.picture(id: id, version: version, box: box) { () throws(UIFailure) in
                            try await wallet.picture(id: id, version: version)
                        }))
            case .filePicture(let path, let box):
                return .success(.picture(try pictures.picture(file: path, box: box)))
            case .qrCode(let card, let box):
                return .success(.qrSymbol(try QRMaker.symbol(for: card, fitting: box)))
            case .vcardLines(let lines):
                return .success(.vcardText(lines.map(ContentLine.displayText)))
            case .exportCards(let request):
                let wallet = await caches?.wallet(for: client)
                return .success(try await CardExport.run(request, client: client, wallet: wallet, progress: progress))
            case .previewImport(let path):
                return .success(.importPreview(try await imports.preview(path, client: client)))
            case .runImport(let planID):
                return .success(.imported(try await imports.run(planID: planID, client: client, progress: progress)))
            case .scanPhoto(let path):
                return .success(
                    .scanned(try await scans.scan(path, maximumImageBytes: client.configuration.maximumImageBytes)))
            case .logIn, .logOut, .loadCards, .loadCard, .createCard, .updateCard, .deleteCard, .restoreCard,
                .reorderCards,
                .searchCache, .resolveOfflineEdit:
                return nil
            }
        } catch {
            return .failure(error)
        }
    }

    /// Deletes the files made for the interface (the scans' upload copies): call it when the
    /// interface ends.
    public func removeFiles() {
        scans.removeFiles()
    }

    /// `card` with `image` put back (through a private temporary file, as uploads stream from
    /// disk), or `card` as it is when that fails: the card itself is back either way.
    static func attach(_ image: Data, to card: Card, on client: CardAPIClient) async -> Card {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cardwallet-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let file = folder.appending(path: "image")
            try image.write(to: file)
            return (try? await client.replaceImage(id: card.id, version: card.version, imageAt: file)) ?? card
        } catch {
            return card
        }
    }

    /// The file a person typed, with `~` expanded; `nil` when the field is blank.
    static func imagePath(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home + text.dropFirst()
        }
        return text
    }
}
