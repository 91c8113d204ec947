public import CardBackend
public import CardImages
public import CardModels
public import CardWalletUI
import Foundation
import Synchronization

/// Makes card images ready for the terminal: fetches a card's image once per revision (its
/// `ETag`), keeps the bytes in memory, and renders them with `CardImages` into a
/// ``CardWalletUI/TerminalPicture`` for the box the detail view gives it.
///
/// The UI core never sees a `CardImages` type: it gets cells (half blocks, kitty placeholders)
/// or escape bytes (iTerm2, sixel) with the cells they cover.
public final class PictureMaker: Sendable {
    /// The protocol and terminal details, chosen once at start.
    public let graphics: GraphicsChoice
    /// How the UI core draws what this makes.
    public let support: PictureSupport
    /// The most image bytes kept in memory; the least recently shown go first.
    public let cacheBytes: Int

    private struct Cached {
        var revision: CardRevision
        var bytes: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var images: [String: Cached] = [:]
        var uses: UInt64 = 0
        var nextKittyID: UInt32 = PictureMaker.firstKittyID
        var kittyIDs: [String: UInt32] = [:]
    }

    private let state = Mutex(State())

    /// Kitty image ids handed out: 16…255, so the id fits the 256-colour foreground a curses
    /// terminal can set (below 16 a terminal may render the basic colours otherwise).
    static let firstKittyID: UInt32 = 16
    static let lastKittyID: UInt32 = 255

    /// A maker for `graphics` (see ``GraphicsSetup``).
    public init(graphics: GraphicsChoice, cacheBytes: Int = 64 << 20) {
        self.graphics = graphics
        self.support = GraphicsSetup.support(for: graphics)
        self.cacheBytes = cacheBytes
    }

    /// The picture of card `id` at `revision`, as large as fits in `box`, its bytes read by
    /// `fetch` when not in memory (the wallet's way: recorded online, from the cache offline).
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: `fetch`'s, or one sentence when the image cannot be
    ///   decoded.
    public func picture(
        id: String, revision: CardRevision, box: PictureBox, fetch: () async throws(UIFailure) -> CardImage
    ) async throws(UIFailure) -> TerminalPicture {
        let bytes: [UInt8]
        if let cached = cachedImage(id: id, revision: revision) {
            bytes = cached
        } else {
            let image = try await fetch()
            bytes = [UInt8](image.data)
            remember(id: id, revision: image.revision ?? revision, bytes: bytes)
        }
        return try render(bytes, box: box, key: "\(id)@\(revision.rawValue)")
    }

    /// The most bytes of a local image file read for a picture: a phone's photo is a few MiB;
    /// a larger file is refused rather than read into memory.
    public static let maximumFileBytes = 32 << 20

    /// The picture of the image file at `path` on this machine (the add form's photo, `~`
    /// expanded), as large as fits in `box`. Nothing is sent anywhere; the file is read each
    /// time (it may have changed), never cached.
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: one short sentence when the file cannot be read,
    ///   is too large, or is not an image that decodes.
    public func picture(file path: String, box: PictureBox) throws(UIFailure) -> TerminalPicture {
        let full = CallPerformer.imagePath(path) ?? path
        let url = URL(fileURLWithPath: full)
        let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? nil
        guard let size else { throw UIFailure(.other, message: "No picture: \(path) cannot be read.") }
        guard size <= Self.maximumFileBytes else {
            throw UIFailure(.other, message: "No picture: \(path) is larger than \(Self.maximumFileBytes >> 20) MiB.")
        }
        guard let data = try? Data(contentsOf: url) else {
            throw UIFailure(.other, message: "No picture: \(path) cannot be read.")
        }
        do {
            return try render([UInt8](data), box: box, key: "file:\(full)")
        } catch {
            throw UIFailure(.other, message: "No picture: \(path) is not a PNG or JPEG that can be shown.")
        }
    }

    /// `bytes` (a PNG or JPEG) rendered into `box`; `key` names the picture for its kitty id.
    public func render(_ bytes: [UInt8], box: PictureBox, key: String) throws(UIFailure) -> TerminalPicture {
        let kittyID = graphics.imageProtocol == .kitty ? kittyImageID(for: key) : 1
        let rendered: RenderedImage
        do {
            rendered = try ImageRenderer.render(
                file: bytes, in: CellSize(columns: box.columns, rows: box.rows), graphics: graphics,
                kittyImageID: kittyID)
        } catch {
            throw UIFailure(.other, message: "The image cannot be shown. \(error.description)")
        }
        return Self.picture(from: rendered, kittyID: kittyID, tmux: graphics.tmux)
    }

    /// The UI's picture for a rendered image.
    static func picture(from rendered: RenderedImage, kittyID: UInt32, tmux: Bool) -> TerminalPicture {
        let size = PictureBox(columns: rendered.cells.columns, rows: rendered.cells.rows)
        switch rendered.imageProtocol {
        case .blocks:
            return TerminalPicture(size: size, content: .cells(cells(rendered.cellRows)))
        case .kitty:
            // The image id rides in the foreground colour; a curses terminal sets it as one of
            // the 256 colours (kitty reads `38;5;id` as id), which is why ids stay below 256.
            let rows = rendered.cellRows.map { row in
                row.map { cell in
                    PictureCell(Character(cell.character), foreground: .indexed(UInt8(kittyID)), background: nil)
                }
            }
            return TerminalPicture(
                size: size, content: .cells(rows), transmit: rendered.escapes,
                release: KittyEncoder.delete(imageID: kittyID, tmux: tmux))
        case .iterm, .sixel:
            return TerminalPicture(size: size, content: .escapes(rendered.escapes))
        case .off:
            return TerminalPicture(size: size, content: .cells([]))
        }
    }

    static func cells(_ rows: [[ImageCell]]) -> [[PictureCell]] {
        rows.map { row in
            row.map { cell in
                PictureCell(
                    Character(cell.character), foreground: color(cell.foreground), background: color(cell.background))
            }
        }
    }

    static func color(_ color: CellColor?) -> TerminalColor? {
        switch color {
        case .rgb(let rgb)?: .rgb(rgb.red, rgb.green, rgb.blue)
        case .indexed(let index)?: .indexed(index)
        case nil: nil
        }
    }

    private func cachedImage(id: String, revision: CardRevision) -> [UInt8]? {
        state.withLock { state in
            guard var cached = state.images[id], cached.revision == revision else { return nil }
            state.uses += 1
            cached.lastUse = state.uses
            state.images[id] = cached
            return cached.bytes
        }
    }

    private func remember(id: String, revision: CardRevision, bytes: [UInt8]) {
        let limit = cacheBytes
        state.withLock { state in
            state.uses += 1
            state.images[id] = Cached(revision: revision, bytes: bytes, lastUse: state.uses)
            var total = state.images.values.reduce(0) { $0 + $1.bytes.count }
            while total > limit, state.images.count > 1,
                let oldest = state.images.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                total -= oldest.value.bytes.count
                state.images[oldest.key] = nil
            }
        }
    }

    /// The kitty id of picture `key`: the same picture keeps its id; ids are reused round
    /// the 16…255 range (the picture that had one before is long gone from the screen).
    private func kittyImageID(for key: String) -> UInt32 {
        state.withLock { state in
            if let id = state.kittyIDs[key] { return id }
            let id = state.nextKittyID
            state.nextKittyID = id >= Self.lastKittyID ? Self.firstKittyID : id + 1
            state.kittyIDs = state.kittyIDs.filter { $0.value != id }
            state.kittyIDs[key] = id
            return id
        }
    }

    /// How many images are kept in memory (for tests).
    public var cachedImageCount: Int { state.withLock { $0.images.count } }
}
