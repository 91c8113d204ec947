import CNCurses
import CardWalletUI
import Testing

@testable import CursesTerminal

@Suite("Styles to attributes and colours")
struct PaletteTests {
    @Test("NO_COLOR set to anything but the empty string turns colour off")
    func noColor() {
        #expect(Palette.environmentAllowsColor(noColor: nil))
        #expect(Palette.environmentAllowsColor(noColor: ""))
        #expect(!Palette.environmentAllowsColor(noColor: "1"))
        #expect(!Palette.environmentAllowsColor(noColor: "0"))
    }

    @Test("Attributes map one to one, with or without colour")
    func attributes() {
        for palette in [
            Palette.monochrome, Palette(usesColor: true, colorCount: 256, usesDefaultBackground: true),
        ] {
            #expect(palette.rendition(for: .plain) == .init(attributes: cn_attr_normal(), pair: 0))
            #expect(palette.rendition(for: Style(.bold)).attributes == cn_attr_bold())
            #expect(palette.rendition(for: Style(.reverse)).attributes == cn_attr_reverse())
            #expect(palette.rendition(for: Style(.underline)).attributes == cn_attr_underline())
            #expect(palette.rendition(for: Style(.dim)).attributes == cn_attr_dim())
            #expect(
                palette.rendition(for: Style([.bold, .reverse])).attributes == cn_attr_bold()
                    | cn_attr_reverse()
            )
        }
    }

    @Test("Without colour every role uses the terminal's colours; muted text is dim; reverse stays")
    func monochrome() {
        let palette = Palette.monochrome
        #expect(palette.pairDefinitions.isEmpty)
        for role in Style.Color.allCases {
            #expect(palette.rendition(for: Style(color: role)).pair == 0)
        }
        #expect(palette.rendition(for: Style(color: .muted)).attributes == cn_attr_dim())
        #expect(
            palette.rendition(for: Style(.reverse, color: .accent))
                == .init(attributes: cn_attr_reverse(), pair: 0))
    }

    @Test("With 256 colours each role has its own pair on the default background")
    func colours() {
        let palette = Palette(usesColor: true, colorCount: 256, usesDefaultBackground: true)
        #expect(
            palette.pairDefinitions == [
                .init(pair: 1, foreground: Int16(COLOR_CYAN), background: -1),
                .init(pair: 2, foreground: Int16(COLOR_RED), background: -1),
                .init(pair: 3, foreground: Int16(COLOR_GREEN), background: -1),
                .init(pair: 4, foreground: Int16(COLOR_YELLOW), background: -1),
                .init(pair: 5, foreground: 8, background: -1),
            ]
        )
        #expect(palette.rendition(for: Style(color: .normal)).pair == 0)
        #expect(
            palette.rendition(for: Style(.bold, color: .error)) == .init(attributes: cn_attr_bold(), pair: 2))
        #expect(palette.rendition(for: Style(color: .muted)) == .init(attributes: cn_attr_normal(), pair: 5))
    }

    @Test("With 8 colours muted text is dim, and without default colours the background is black")
    func eightColours() {
        let palette = Palette(usesColor: true, colorCount: 8, usesDefaultBackground: false)
        #expect(palette.pairDefinitions.map(\.pair) == [1, 2, 3, 4])
        #expect(palette.pairDefinitions.allSatisfy { $0.background == Int16(COLOR_BLACK) })
        #expect(palette.rendition(for: Style(color: .muted)) == .init(attributes: cn_attr_dim(), pair: 0))
        #expect(palette.rendition(for: Style(color: .warning)).pair == 4)
    }
}
