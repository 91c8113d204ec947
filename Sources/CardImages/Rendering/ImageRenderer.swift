import CardModels

/// A picture made ready for a terminal: what to write and, for text-based protocols, the cells
/// a grid renderer draws.
public struct RenderedImage: Sendable, Hashable {
    /// The protocol it was made for.
    public var imageProtocol: ImageProtocol
    /// The cells it covers.
    public var cells: CellSize
    /// The size in pixels of what was encoded (half blocks: columns × 2·rows).
    public var pixelSize: PixelSize
    /// Bytes to write to the terminal: for kitty placeholders the transmission (once, outside
    /// the cell grid); for a kitty placement, iTerm2 and sixel the whole picture, drawn at the
    /// cursor; empty for half blocks.
    public var escapes: [UInt8]
    /// The cells to draw, row by row: half blocks, or kitty placeholders. Empty for protocols
    /// the terminal draws itself (kitty placement, iTerm2, sixel).
    public var cellRows: [[ImageCell]]

    /// Everything for a plain stream such as standard output: the escapes, then the cells as
    /// text lines (each ending in a reset and a newline).
    public var streamBytes: [UInt8] {
        escapes + Array(ImageCell.text(of: cellRows).utf8)
    }
}

/// How a kitty image is placed.
public enum KittyPlacement: Sendable, Hashable {
    /// Unicode placeholder cells (for a TUI, and inside tmux).
    case placeholders
    /// A plain placement at the cursor (for standard output outside tmux).
    case cursor
}

/// Why a picture could not be made.
public enum ImageRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be decoded.
    case decode(ImageDecodeError)
    /// The payload could not be encoded.
    case encode(ImageEncodeError)

    /// One sentence.
    public var description: String {
        switch self {
        case .decode(let error): error.description
        case .encode(let error): "The image could not be prepared for the terminal: \(error.description)"
        }
    }
}

/// Decodes, scales and encodes a card image for a terminal: the one call a TUI or a command
/// needs.
public enum ImageRenderer {
    /// Renders the PNG or JPEG `file` as large as fits in `box`, aspect kept.
    ///
    /// - Parameters:
    ///   - file: the image file's bytes.
    ///   - box: the cells available.
    ///   - graphics: the protocol and terminal details (``TerminalProbe/detect(environment:requested:timeout:)``).
    ///   - kittyImageID: the id for a kitty image (1...0xFFFFFF); a TUI gives each picture
    ///     its own, so replacing one does not disturb the others.
    ///   - kittyPlacement: placeholders (default, and always inside tmux) or at the cursor.
    ///   - limits: decoding caps.
    /// - Throws: ``ImageRenderError``. For ``ImageProtocol/off`` nothing is decoded: the result
    ///   has the cells the picture would take (from the header) and nothing to draw.
    public static func render(
        file: [UInt8], in box: CellSize, graphics: GraphicsChoice, kittyImageID: UInt32 = 1,
        kittyPlacement: KittyPlacement = .placeholders, limits: DecodeLimits = .standard
    ) throws(ImageRenderError) -> RenderedImage {
        let size: PixelSize
        do throws(ImageDecodeError) { size = try ImageDecoder.size(of: file, limits: limits) } catch {
            throw .decode(error)
        }
        var box = box
        if graphics.imageProtocol == .kitty {
            box.columns = min(box.columns, KittyEncoder.maximumSpan)
            box.rows = min(box.rows, KittyEncoder.maximumSpan)
        }
        let cells = CellFit.cells(for: size, in: box, cellPixels: graphics.cellPixels)
        let target = targetPixels(source: size, cells: cells, graphics: graphics)
        if graphics.imageProtocol == .off {
            return RenderedImage(imageProtocol: .off, cells: cells, pixelSize: target, escapes: [], cellRows: [])
        }
        let image: RGBAImage
        do throws(ImageDecodeError) {
            image = ImageScaler.scale(try ImageDecoder.decode(file, limits: limits, atLeast: target), to: target)
        } catch {
            throw .decode(error)
        }
        return try render(
            scaled: image, cells: cells, graphics: graphics, kittyImageID: kittyImageID, kittyPlacement: kittyPlacement,
            photo: CardImageFormat(sniffing: file.prefix(8)) == .jpeg)
    }

    /// The pixel size to encode for `cells`: half blocks exactly columns × 2·rows; sixel the
    /// cells' pixels (the terminal draws pixels as they are); kitty and iTerm2 the same but
    /// never larger than the source, since the terminal scales them up itself.
    public static func targetPixels(source: PixelSize, cells: CellSize, graphics: GraphicsChoice) -> PixelSize {
        let bounds = PixelSize(
            width: cells.columns * graphics.cellPixels.width, height: cells.rows * graphics.cellPixels.height)
        switch graphics.imageProtocol {
        case .blocks, .off: return PixelSize(width: cells.columns, height: cells.rows * 2)
        case .sixel: return CellFit.pixels(for: source, within: bounds)
        case .kitty, .iterm:
            let fitted = CellFit.pixels(for: source, within: bounds)
            return fitted.width > source.width ? source : fitted
        }
    }

    /// Encodes an image already scaled for `cells` (see ``targetPixels(source:cells:graphics:)``).
    ///
    /// - Parameter photo: the source was a JPEG, so iTerm2 (which decodes any format) is sent a
    ///   JPEG at quality 90 — about a tenth of a PNG's bytes for a photo — when it is opaque;
    ///   kitty takes only PNG or raw pixels.
    public static func render(
        scaled image: RGBAImage, cells: CellSize, graphics: GraphicsChoice, kittyImageID: UInt32 = 1,
        kittyPlacement: KittyPlacement = .placeholders, photo: Bool = false
    ) throws(ImageRenderError) -> RenderedImage {
        var result = RenderedImage(
            imageProtocol: graphics.imageProtocol, cells: cells, pixelSize: image.size, escapes: [], cellRows: [])
        do throws(ImageEncodeError) {
            switch graphics.imageProtocol {
            case .off:
                break
            case .blocks:
                result.cellRows = HalfBlockEncoder.cells(for: image, depth: graphics.depth)
            case .sixel:
                result.escapes = SixelEncoder.encode(image)
            case .iterm:
                let file =
                    photo && !image.hasTransparency
                    ? try JPEGCodec.encode(image, quality: 90) : try PNGCodec.encode(image, fast: true)
                result.escapes = ITermEncoder.inline(file: file, cells: cells, tmux: graphics.tmux)
            case .kitty:
                let png = try PNGCodec.encode(image, fast: true)
                let id = min(max(1, kittyImageID), KittyEncoder.maximumImageID)
                if kittyPlacement == .placeholders || graphics.tmux {
                    result.escapes = KittyEncoder.virtualPlacement(
                        png: png, imageID: id, cells: cells, tmux: graphics.tmux)
                    result.cellRows = KittyEncoder.placeholderCells(imageID: id, cells: cells)
                } else {
                    result.escapes = KittyEncoder.placement(png: png, imageID: id, cells: cells, tmux: false)
                }
            }
        } catch {
            throw .encode(error)
        }
        return result
    }
}
