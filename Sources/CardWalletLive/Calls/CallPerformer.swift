import CardBackend
public import CardImages
import CardModels
import CardVCard
public import CardWalletUI
import Foundation

/// Performs the interface's ``CardWalletUI/AppCall``s — card requests through the account's
/// wallet (``WalletAccounts``, ``CachedWallet``), pictures, QR codes, vCard import and export and
/// scans through their libraries — and answers with a ``CardWalletUI/CallResult`` or a
/// ``CardWalletUI/UIFailure``: the `perform` closure of ``CardWalletUI/AppRunner``.
///
/// ```swift
/// let accounts = WalletAccounts(backend: live.backend, sessionSink: sink, cacheEnvironment: environment,
///                               logger: logger) { live.backend(for: $0) }
/// let performer = CallPerformer(accounts: accounts, pictures: pictures)
/// let runner = AppRunner(state: state, backend: terminal, inbox: inbox) { await performer.perform($0) }
/// ```
public final class CallPerformer: Sendable {
    /// The accounts, their backends and wallets.
    public let accounts: WalletAccounts
    /// Card images for this terminal, kept in memory.
    public let pictures: PictureMaker
    /// The settings of a browser login (``CardWalletUI/AppCall/logInWithBrowser(server:)``).
    public let browserLogin: BrowserLogin
    let imports = ImportRunner()
    private let scans = PhotoScan()
    let pages = ListPages()
    let outbox = OutboxSender()
    /// Every book of every account: the All view, and the book each of its cards is in.
    public let shelf: Bookshelf
    /// Whether the list shows every book at once, and the All view's list.
    public let views: BookViews

    /// A performer on `accounts`, drawing pictures with `pictures`.
    ///
    /// - Parameters:
    ///   - shelf: every book of every account (made here when `nil`).
    ///   - views: whether the list shows every book (as the wallet remembers when `nil`).
    public init(
        accounts: WalletAccounts,
        pictures: PictureMaker = PictureMaker(graphics: GraphicsChoice(imageProtocol: .blocks)),
        shelf: Bookshelf? = nil, views: BookViews? = nil, browserLogin: BrowserLogin = BrowserLogin()
    ) {
        self.accounts = accounts
        self.pictures = pictures
        let shelf = shelf ?? Bookshelf(accounts: accounts)
        self.shelf = shelf
        self.views = views ?? BookViews(showsAll: shelf.remembered?.showsAll ?? false)
        self.browserLogin = browserLogin
    }

    /// Performs `call`.
    ///
    /// - Returns: What the server answered, or why it failed. A conflict carries the server's
    ///   current card when it could be read, so the form can show both.
    public func perform(_ call: AppCall) async -> CallOutcome {
        await perform(call, progress: .ignoring)
    }

    /// Performs `call`, telling how far a long one (an import, an export) has got.
    public func perform(_ call: AppCall, progress: ProgressReporter) async -> CallOutcome {
        // A move, a copy or a merge waiting in an outbox reaches its other book.
        await CachedWallet.$transferPeers.withValue(shelf) { await performReaching(call, progress: progress) }
    }

    private func performReaching(_ call: AppCall, progress: ProgressReporter) async -> CallOutcome {
        // The cache's background reads wait while the person's calls run.
        accounts.filler.userCallStarted()
        defer { accounts.filler.userCallEnded() }
        // A card of the All view goes to its own book; the All view's list, search and export
        // span every book.
        if let routed = await performOnBooks(call, progress: progress) { return routed }
        if let local = await performLocally(call, progress: progress) { return local }
        // The first list call waits for the first frame's paint, as the All view's does: what
        // it reads and writes (the outbox, the cache the server's page is recorded in) would
        // compete with the paint of the cache's cards (docs/BENCHMARKS.md #17).
        if case .loadCards(0, _, nil) = call { await shelf.firstFrameSettled() }
        if case .logInWithBrowser(let server) = call { return await logInWithBrowser(server, progress: progress) }
        let cached = await accounts.cachedWallet()
        switch call {
        case .searchCache(let query):
            guard let cached else { return .failure(UIFailure(.other, message: "no card cache")) }
            return Self.search(query, in: cached)
        case .resolveOfflineEdit(let entry, let keptMine):
            guard let cached else { return .failure(UIFailure(.other, message: "no card cache")) }
            return outbox.resolve(entry: entry, keptMine: keptMine, in: cached)
        default:
            break
        }
        let wallet = cached ?? CachedWallet(backend: accounts.backend, cache: nil, logger: accounts.logger)
        var conflicts: [OfflineConflict] = []
        if case .loadCards(0, _, nil) = call, let cached { conflicts = await outbox.send(cached) }
        do {
            let result = try await send(call, wallet: wallet)
            guard !conflicts.isEmpty else { return .success(result) }
            outbox.delivered(conflicts)
            return .success(.withOfflineConflicts(conflicts, result))
        } catch {
            if await accounts.handleSessionEnd(error) { return .failure(UIFailure(any: error)) }
            if let answer = offlineAnswer(call, after: error, wallet: cached) { return answer }
            if BackendFailures.kind(of: error) == .conflict, case .updateCard(let id, _, _) = call,
                let failure = error as? any BackendFailure
            {
                return .failure(UIFailure(failure, current: await wallet.conflictingCard(id: id)))
            }
            return .failure(UIFailure(any: error))
        }
    }

    /// The answer to `call`. A card in it comes with the lines of its vCard that no field reads,
    /// when a CardDAV server keeps them (`Card.withSourceLines`): the detail shows them as it
    /// shows the card API's kept lines, before an edit and after it. An edit of a CardDAV card
    /// does not send them: its vCard on the server keeps them.
    func send(_ call: AppCall, wallet: CachedWallet) async throws -> CallResult {
        let result = try await answer(call, wallet: wallet)
        guard case .card(let card) = result else { return result }
        return .card(card.withSourceLines)
    }

    private func answer(_ call: AppCall, wallet: CachedWallet) async throws -> CallResult {
        switch call {
        case .logIn(let server, let email, let password):
            let report = try await accounts.logIn(server: server, account: email, password: password)
            return .loggedIn(email: report.account.email, server: report.account.shownServer)
        case .logInWithBrowser(let server):
            // Performed before the wallet's calls, with its progress (the address): see perform.
            return try await Self.browserLoginResult(
                accounts: accounts, browserLogin: browserLogin, server: server, progress: .ignoring)
        case .switchAccount, .listAccounts:
            return try await Self.accountCall(call, accounts: accounts)
        case .nextBook:
            let switched = try await accounts.switchToNextBook()
            let session: SessionStatus =
                switched.session.map { .loggedIn(email: $0.email, server: $0.shownServer) } ?? .loggedOut
            return .switchedBook(switched.book.shownName, session: session)
        case .logOut:
            let reports = try await accounts.logOut()
            // The session is over here either way; the interface says the server was not told.
            if let problem = reports.first?.serverProblem { throw problem }
            return .loggedOut
        case .loadCards(let offset, let limit, let query):
            return try await pages.load(offset: offset, limit: limit, query: query, wallet: wallet, accounts: accounts)
        case .loadCard(let id):
            return .card(try await wallet.card(id: id, .online).value)
        case .createCard(let fields, let imagePath):
            let image = try Self.imagePath(imagePath).map {
                try ImageUpload(
                    validating: URL(fileURLWithPath: $0), maximumBytes: wallet.backend.maximumImageBytes)
            }
            return Self.result(try await wallet.create(fields, image: image, offline: .queue)) { .card($0) }
        case .updateCard(let id, let fields, let revision):
            return Self.result(try await wallet.update(id: id, fields: fields, revision: revision, offline: .queue)) {
                .card($0)
            }
        case .deleteCard(let id):
            // Read it first — from the server, or from the cache when the server cannot be
            // reached — so the delete can be undone (u); a card that cannot be read is deleted
            // all the same, without undo. Offline, the delete waits in the outbox, as every
            // change made in the interface does.
            guard let read = try? await wallet.card(id: id, .online) else {
                return Self.result(try await wallet.delete(id: id, revision: nil, offline: .queue)) {
                    .deleted(id: $0, backup: nil)
                }
            }
            let card = read.value
            // A card the cache answered for: its picture too, without asking the server again.
            let offline = read.offlineAsOf != nil
            let image = card.hasImage ? (try? await wallet.image(of: card, offline: offline))?.value.data : nil
            // Only the revision read: what undo would bring back is what is deleted.
            return Self.result(try await wallet.delete(id: id, revision: card.revision, offline: .queue)) {
                .deleted(id: $0, backup: DeletedCard(card: card, image: image))
            }
        case .restoreCard(let deleted):
            guard let image = deleted.image else {
                // Offline, it comes back as an addition waiting in the outbox.
                return Self.result(try await wallet.create(deleted.card.fields, offline: .queue)) { .card($0) }
            }
            // With its picture or not at all: a card with a picture cannot wait in the outbox.
            let card: Card
            do {
                card = try await wallet.create(deleted.card.fields).value
            } catch  where BackendFailures.isNetworkFailure(error) {
                throw CannotQueue(
                    description:
                        "offline: a card with a picture can be brought back only while the server can be reached")
            }
            return .card(await Self.attach(image, to: card, in: wallet))
        case .reorderCards(let order):
            return Self.result(try await wallet.reorder(order, offline: .queue)) { _ in .reordered }
        case .cardPicture, .filePicture, .qrCode, .vcardLines, .exportCards, .previewImport, .runImport, .scanPhoto,
            .searchCache, .resolveOfflineEdit, .listBooks, .transferCard, .loadMerge, .mergeCards:
            // Answered by performLocally, performOnBooks and perform.
            throw CannotQueue(description: "not a card request")
        }
    }

    /// A write's answer as the interface takes it: queued ones say so.
    private static func result<Value>(_ answer: WriteAnswer<Value>, _ shown: (Value) -> CallResult) -> CallResult {
        switch answer {
        case .done(let value): shown(value)
        case .queued(let value): .queued(shown(value))
        }
    }

    /// The calls the libraries answer (pictures, QR codes, vCard, scans), with their own
    /// failures; `nil` for the card requests.
    private func performLocally(_ call: AppCall, progress: ProgressReporter) async -> CallOutcome? {
        do throws(UIFailure) {
            switch call {
            case .cardPicture(let id, let revision, let box):
                let wallet = await accounts.wallet()
                // Through the cache: recorded by revision online, from the cache offline.
                return .success(
                    .picture(
                        try await pictures.picture(id: id, revision: revision, box: box) { () throws(UIFailure) in
                            try await wallet.picture(id: id, revision: revision)
                        }))
            case .filePicture(let path, let box):
                return .success(.picture(try pictures.picture(file: path, box: box)))
            case .qrCode(let card, let box):
                return .success(.qrSymbol(try QRMaker.symbol(for: card, fitting: box)))
            case .vcardLines(let lines):
                return .success(.vcardText(lines.map(ContentLine.displayText)))
            case .exportCards(let request):
                return .success(try await CardExport.run(request, wallet: await accounts.wallet(), progress: progress))
            case .previewImport(let path):
                return .success(.importPreview(try await imports.preview(path, wallet: await accounts.wallet())))
            case .runImport(let planID):
                return .success(
                    .imported(
                        try await imports.run(planID: planID, wallet: await accounts.wallet(), progress: progress)))
            case .scanPhoto(let path):
                return .success(
                    .scanned(try await scans.scan(path, maximumImageBytes: accounts.backend.maximumImageBytes)))
            case .switchAccount, .listAccounts:
                do {
                    return .success(try await Self.accountCall(call, accounts: accounts))
                } catch {
                    return .failure(UIFailure(any: error))
                }
            case .logIn, .logInWithBrowser, .logOut, .loadCards, .loadCard, .createCard, .updateCard, .deleteCard,
                .restoreCard, .reorderCards, .searchCache, .resolveOfflineEdit, .nextBook, .listBooks, .transferCard,
                .loadMerge, .mergeCards:
                return nil
            }
        } catch {
            return .failure(error)
        }
    }

    /// The stored accounts' calls: answered from the token file, nothing sent.
    private static func accountCall(_ call: AppCall, accounts: WalletAccounts) async throws -> CallResult {
        switch call {
        case .switchAccount(let name):
            let (account, session) = try await accounts.switchAccount(named: name)
            return .switchedAccount(account, session: session, accounts: accounts.storedAccounts())
        default:
            return .accounts(accounts.storedAccounts())
        }
    }

    /// Deletes the files made for the interface (the scans' upload copies): call it when the
    /// interface ends.
    public func removeFiles() {
        scans.removeFiles()
    }

    /// `card` with `image` put back (through a private temporary file, as uploads stream from
    /// disk), or `card` as it is when that fails: the card itself is back either way.
    static func attach(_ image: Data, to card: Card, in wallet: CachedWallet) async -> Card {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cardwallet-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let file = folder.appending(path: "image")
            try image.write(to: file)
            let upload = try ImageUpload(validating: file, maximumBytes: wallet.backend.maximumImageBytes)
            return (try? await wallet.setImage(of: card.id, revision: card.revision, to: upload)) ?? card
        } catch {
            return card
        }
    }

    /// The file a person typed, with `~` expanded; `nil` when the field is blank.
    static func imagePath(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return LocalPath.expandingHome(text)
    }
}
