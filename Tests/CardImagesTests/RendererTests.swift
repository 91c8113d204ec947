import Testing

@testable import CardImages

@Suite("Rendering a card image for a terminal")
struct RendererTests {
    private let photo = { () -> [UInt8] in try! TestImages.jpeg(TestImages.quadrants(width: 400, height: 200)) }()
    private let box = CellSize(columns: 20, rows: 20)

    @Test("half blocks: columns × rows cells of ▀, two pixels each")
    func blocks() throws {
        let rendered = try ImageRenderer.render(file: photo, in: box, graphics: GraphicsChoice(imageProtocol: .blocks))
        #expect(rendered.cells == CellSize(columns: 20, rows: 5))
        #expect(rendered.pixelSize == PixelSize(width: 20, height: 10))
        #expect(rendered.escapes.isEmpty)
        #expect(rendered.cellRows.count == 5 && rendered.cellRows.allSatisfy { $0.count == 20 })
        guard case .rgb(let topLeft) = rendered.cellRows[0][0].foreground else {
            Issue.record("not 24-bit")
            return
        }
        #expect(TestImages.close(topLeft, TestImages.red, tolerance: 30))
        let text = String(decoding: rendered.streamBytes, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 5)
    }

    @Test(
        "kitty: placeholders by default (transmission plus cells), a cursor placement when asked, placeholders always in tmux"
    )
    func kitty() throws {
        let graphics = GraphicsChoice(imageProtocol: .kitty)
        let placeholders = try ImageRenderer.render(file: photo, in: box, graphics: graphics, kittyImageID: 42)
        #expect(
            String(decoding: placeholders.escapes.prefix(40), as: UTF8.self).hasPrefix(
                "\u{1B}_Ga=T,U=1,f=100,t=d,i=42,c=20,r=5,q=2"))
        #expect(placeholders.cellRows.count == 5)
        #expect(placeholders.pixelSize == PixelSize(width: 200, height: 100))
        let cursor = try ImageRenderer.render(
            file: photo, in: box, graphics: graphics, kittyImageID: 42, kittyPlacement: .cursor)
        #expect(cursor.cellRows.isEmpty)
        #expect(
            String(decoding: cursor.escapes.prefix(40), as: UTF8.self).hasPrefix(
                "\u{1B}_Ga=T,f=100,t=d,i=42,c=20,r=5,q=2"))
        var inTmux = graphics
        inTmux.tmux = true
        let wrapped = try ImageRenderer.render(file: photo, in: box, graphics: inTmux, kittyPlacement: .cursor)
        #expect(String(decoding: wrapped.escapes.prefix(11), as: UTF8.self) == "\u{1B}Ptmux;\u{1B}\u{1B}_G")
        #expect(wrapped.cellRows.count == 5)
    }

    @Test("kitty and iTerm2 never send more pixels than the source has; sixel fills the cells' pixels")
    func pixelSizes() {
        let small = PixelSize(width: 16, height: 8)
        let cells = CellSize(columns: 20, rows: 5)
        #expect(
            ImageRenderer.targetPixels(source: small, cells: cells, graphics: GraphicsChoice(imageProtocol: .kitty))
                == small)
        #expect(
            ImageRenderer.targetPixels(source: small, cells: cells, graphics: GraphicsChoice(imageProtocol: .iterm))
                == small)
        #expect(
            ImageRenderer.targetPixels(source: small, cells: cells, graphics: GraphicsChoice(imageProtocol: .sixel))
                == PixelSize(width: 200, height: 100))
    }

    @Test("iTerm2 and sixel are escapes only")
    func itermAndSixel() throws {
        let iterm = try ImageRenderer.render(file: photo, in: box, graphics: GraphicsChoice(imageProtocol: .iterm))
        #expect(String(decoding: iterm.escapes.prefix(30), as: UTF8.self).hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(iterm.cellRows.isEmpty)
        let sixel = try ImageRenderer.render(
            file: photo, in: CellSize(columns: 4, rows: 4), graphics: GraphicsChoice(imageProtocol: .sixel))
        #expect(String(decoding: sixel.escapes.prefix(20), as: UTF8.self) == "\u{1B}P0;1;0q\"1;1;40;20#0")
    }

    @Test("off: nothing decoded or drawn, but the cells it would take")
    func off() throws {
        let rendered = try ImageRenderer.render(file: photo, in: box, graphics: GraphicsChoice(imageProtocol: .off))
        #expect(rendered.cells == CellSize(columns: 20, rows: 5))
        #expect(rendered.streamBytes.isEmpty)
    }

    @Test("a corrupt file is an error with the decoder's sentence")
    func corrupt() {
        let error = #expect(throws: ImageRenderError.self) {
            _ = try ImageRenderer.render(
                file: Array(photo.prefix(300)), in: box, graphics: GraphicsChoice(imageProtocol: .blocks))
        }
        #expect(error?.description.hasPrefix("The JPEG image cannot be decoded: ") == true)
    }
}
