import Testing

@testable import CardImages

@Suite("Choosing the protocol")
struct DetectionTests {
    private let kittyOK = TerminalAnswers(
        kittyGraphics: true, deviceAttributes: [62, 22], cellPixels: PixelSize(width: 9, height: 18))
    private let sixelDA = TerminalAnswers(deviceAttributes: [62, 4, 22])
    private let plainDA = TerminalAnswers(deviceAttributes: [62, 22])

    private func choose(
        _ environment: [String: String], _ answers: TerminalAnswers? = nil, tmux: TmuxAnswers? = nil,
        requested: ImageProtocol? = nil
    ) -> GraphicsChoice {
        ImageProtocolDetector.choose(environment: environment, answers: answers, tmux: tmux, requested: requested)
    }

    @Test("kitty when the terminal answers its query OK, with the cell size it reported")
    func kittyByQuery() {
        let choice = choose(["TERM": "xterm-256color"], kittyOK)
        #expect(choice.imageProtocol == .kitty)
        #expect(choice.cellPixels == PixelSize(width: 9, height: 18))
        #expect(!choice.tmux)
        #expect(choice.reason == "the terminal answered the kitty graphics query")
    }

    @Test("kitty from the environment only when nobody was asked")
    func kittyByEnvironment() {
        #expect(choose(["TERM": "xterm-kitty"]).imageProtocol == .kitty)
        #expect(choose(["KITTY_WINDOW_ID": "3", "TERM": "xterm-256color"]).imageProtocol == .kitty)
        #expect(choose(["TERM_PROGRAM": "ghostty"]).imageProtocol == .kitty)
        // Asked, and the terminal did not say OK: a leaked KITTY_WINDOW_ID (ssh) does not count.
        #expect(choose(["KITTY_WINDOW_ID": "3", "TERM": "xterm-256color"], plainDA).imageProtocol == .blocks)
    }

    @Test("iTerm2 from LC_TERMINAL or TERM_PROGRAM; WezTerm too")
    func iterm() {
        #expect(choose(["LC_TERMINAL": "iTerm2", "TERM": "xterm-256color"], plainDA).imageProtocol == .iterm)
        #expect(choose(["TERM_PROGRAM": "iTerm.app"]).imageProtocol == .iterm)
        #expect(choose(["TERM_PROGRAM": "WezTerm"], sixelDA).imageProtocol == .iterm)
    }

    @Test("sixel when DA1 lists 4")
    func sixel() {
        let choice = choose(["TERM": "foot"], sixelDA)
        #expect(choice.imageProtocol == .sixel)
        #expect(choice.reason == "the terminal's DA1 lists sixel (4)")
    }

    @Test("a terminal that answers nothing gets half blocks, whatever the environment says")
    func silent() {
        let choice = choose(["TERM": "xterm-kitty", "COLORTERM": "truecolor"], TerminalAnswers())
        #expect(choice.imageProtocol == .blocks)
        #expect(choice.reason == "the terminal answered no query")
    }

    @Test("half blocks in 24-bit with COLORTERM=truecolor or a -direct TERM, else 256 colours")
    func blocksDepth() {
        #expect(choose(["TERM": "xterm-256color", "COLORTERM": "truecolor"], plainDA).depth == .trueColor)
        #expect(choose(["TERM": "xterm-direct"], plainDA).depth == .trueColor)
        let palette = choose(["TERM": "xterm-256color"], plainDA)
        #expect(palette.imageProtocol == .blocks && palette.depth == .palette256)
        #expect(palette.description == "images: half blocks, 256-colour — 256 colours")
    }

    @Test("NO_COLOR and TERM=dumb turn images off; an empty NO_COLOR does not")
    func off() {
        #expect(choose(["NO_COLOR": "1", "TERM": "xterm-kitty"], kittyOK).imageProtocol == .off)
        #expect(choose(["TERM": "dumb"]).imageProtocol == .off)
        #expect(choose(["NO_COLOR": "", "TERM": "xterm-kitty"], kittyOK).imageProtocol == .kitty)
    }

    @Test("CARDWALLET_IMAGES forces a protocol (over NO_COLOR too); auto detects; a bad value is named and ignored")
    func override() {
        for name in ["kitty", "iterm", "sixel", "blocks", "off"] {
            let choice = choose(["CARDWALLET_IMAGES": name, "NO_COLOR": "1"], TerminalAnswers())
            #expect(choice.imageProtocol.rawValue == name)
            #expect(choice.reason == "CARDWALLET_IMAGES=\(name)")
        }
        #expect(choose(["CARDWALLET_IMAGES": " Sixel "]).imageProtocol == .sixel)
        #expect(choose(["CARDWALLET_IMAGES": "auto", "TERM": "foot"], sixelDA).imageProtocol == .sixel)
        let bad = choose(["CARDWALLET_IMAGES": "png\u{1B}[2J", "TERM": "foot"], sixelDA)
        #expect(bad.imageProtocol == .sixel)
        #expect(
            bad.reason.hasSuffix(
                "; CARDWALLET_IMAGES=png[2J is not one of auto, kitty, iterm, sixel, blocks, off and was ignored"))
        #expect(choose(["CARDWALLET_IMAGES": "sixel"], requested: .blocks).imageProtocol == .blocks)
    }

    @Test("inside tmux, kitty and iTerm2 need allow-passthrough; tmux's own DA1 decides sixel")
    func tmux() {
        let environment = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "COLORTERM": "truecolor"]
        let on = TmuxAnswers(allowPassthrough: true, clientTermName: "xterm-kitty", clientTermType: "kitty(0.35.2)")
        let off = TmuxAnswers(allowPassthrough: false, clientTermName: "xterm-kitty")
        let kitty = choose(environment, plainDA, tmux: on)
        #expect(kitty.imageProtocol == .kitty && kitty.tmux)
        #expect(kitty.description == "images: kitty graphics (inside tmux) — the terminal is kitty")
        let blocked = choose(environment, plainDA, tmux: off)
        #expect(blocked.imageProtocol == .blocks)
        #expect(blocked.reason.contains("allow-passthrough is off"))
        #expect(choose(environment, sixelDA, tmux: off).imageProtocol == .sixel)
        let iterm = choose(
            environment.merging(["LC_TERMINAL": "iTerm2"]) { $1 }, plainDA, tmux: TmuxAnswers(allowPassthrough: true))
        #expect(iterm.imageProtocol == .iterm && iterm.tmux)
        #expect(
            choose(environment, plainDA, tmux: TmuxAnswers(allowPassthrough: true, clientTermType: "iTerm2 3.5.0"))
                .imageProtocol == .iterm)
    }
}

@Suite("Parsing the terminal's answers")
struct TerminalAnswersTests {
    @Test("kitty OK, the cell size and DA1, in any order and among other bytes")
    func parseAll() {
        let bytes = Array("x\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\junk\u{1B}[?62;4;22c".utf8)
        let answers = TerminalAnswers.parse(bytes)
        #expect(
            answers
                == TerminalAnswers(
                    kittyGraphics: true, deviceAttributes: [62, 4, 22], cellPixels: PixelSize(width: 10, height: 20)))
        #expect(answers.sixel && answers.complete && answers.answeredAnything)
    }

    @Test("a kitty error reply is a no; other APCs and incomplete sequences are skipped")
    func parseOthers() {
        #expect(TerminalAnswers.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\".utf8)).kittyGraphics == false)
        #expect(
            TerminalAnswers.parse(Array("\u{1B}_Xfoo\u{1B}\\\u{1B}[?1;2c".utf8))
                == TerminalAnswers(deviceAttributes: [1, 2]))
        #expect(TerminalAnswers.parse(Array("\u{1B}[?62;4".utf8)) == TerminalAnswers())
        #expect(TerminalAnswers.parse(Array("\u{1B}_Gi=31;OK".utf8)) == TerminalAnswers())
        #expect(TerminalAnswers.parse(Array("\u{1B}[6;0;0t\u{1B}[4;600;800t".utf8)).cellPixels == nil)
        #expect(!TerminalAnswers.parse([]).answeredAnything)
    }

    @Test("the queries: kitty's a=q (wrapped for tmux when asked), the cell size, DA1 last")
    func queries() {
        #expect(
            String(decoding: TerminalProbe.queries(kittyThroughTmux: false), as: UTF8.self)
                == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[c")
        #expect(
            String(decoding: TerminalProbe.queries(kittyThroughTmux: true), as: UTF8.self)
                == "\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\u{1B}\\\u{1B}\\\u{1B}[16t\u{1B}[c")
    }
}
