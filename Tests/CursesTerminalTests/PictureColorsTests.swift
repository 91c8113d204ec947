import CardWalletUI
import Testing

@testable import CursesTerminal

/// Explicit colours (pictures, QR codes) on each kind of terminal, and when pictures drawn by
/// the terminal (iTerm2, sixel) are written again or erased.
@Suite("Picture colours and overlays")
struct PictureColorsTests {
    @Test("An explicit colour is RGB on a direct-colour terminal, the nearest palette entry elsewhere")
    func explicitColours() {
        let direct = Palette(usesColor: true, colorCount: 1 << 24, usesDefaultBackground: true)
        let xterm = Palette(usesColor: true, colorCount: 256, usesDefaultBackground: true)
        let basic = Palette(usesColor: true, colorCount: 8, usesDefaultBackground: true)
        #expect(direct.colorNumber(.rgb(0x12, 0x34, 0x56)) == 0x123456)
        #expect(xterm.colorNumber(.rgb(255, 255, 255)) == 231 || xterm.colorNumber(.rgb(255, 255, 255)) == 15)
        #expect(xterm.colorNumber(.rgb(0, 0, 0)) == 16 || xterm.colorNumber(.rgb(0, 0, 0)) == 0)
        #expect(xterm.colorNumber(.indexed(200)) == 200)
        #expect(basic.colorNumber(.rgb(250, 10, 10)) == 1)
        #expect((0..<8).contains(basic.colorNumber(.indexed(200))))
        // A QR module's style: explicit pair, no role pair; without colour, the terminal's own.
        let style = Style(foreground: .rgb(255, 255, 255), background: .rgb(0, 0, 0))
        #expect(xterm.rendition(for: style).explicit != nil)
        #expect(Palette.monochrome.rendition(for: style).explicit == nil)
    }

    @Test("A terminal-drawn picture is written when new or when a row under it was repainted, and erased when gone")
    func overlays() {
        let picture = Grid.Overlay(x: 50, y: 2, columns: 20, rows: 10, escapes: Array("\u{1B}Pq…".utf8))
        let moved = Grid.Overlay(x: 50, y: 4, columns: 20, rows: 10, escapes: picture.escapes)
        // New: written.
        var plan = OverlayPlanner.plan(previous: [], current: [picture], repaintedRows: [], everything: false)
        #expect(plan.send == [picture] && plan.redraw.isEmpty)
        // Unchanged, nothing repainted under it: not written again.
        plan = OverlayPlanner.plan(previous: [picture], current: [picture], repaintedRows: [0, 20], everything: false)
        #expect(plan.send.isEmpty && plan.redraw.isEmpty)
        // A row under it repainted (text drawn there erases the picture): written again.
        plan = OverlayPlanner.plan(previous: [picture], current: [picture], repaintedRows: [5], everything: false)
        #expect(plan.send == [picture])
        // Gone (a dialog covers the card): its rows are repainted, which erases it.
        plan = OverlayPlanner.plan(previous: [picture], current: [], repaintedRows: [], everything: false)
        #expect(plan.send.isEmpty && plan.redraw == [2..<12])
        // Moved: the old rows repainted, the new place written.
        plan = OverlayPlanner.plan(previous: [picture], current: [moved], repaintedRows: [], everything: false)
        #expect(plan.send == [moved] && plan.redraw == [2..<12])
        // After a full repaint everything is written again.
        plan = OverlayPlanner.plan(previous: [], current: [picture], repaintedRows: [], everything: true)
        #expect(plan.send == [picture])
    }
}
