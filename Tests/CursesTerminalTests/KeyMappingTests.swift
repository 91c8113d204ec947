import CNCurses
import CardWalletUI
import Testing

@testable import CursesTerminal

@Suite("Key mapping")
struct KeyMappingTests {
    @Test(
        "Printable characters, including wide and non-ASCII ones, are typed text",
        arguments: ["j", "J", "/", "?", " ", "~", "é", "한", "語", "😀"] as [Character]
    )
    func printable(_ character: Character) throws {
        let value = try #require(character.unicodeScalars.first).value
        #expect(KeyMapping.input(for: .character(value)) == .key(.char(character)))
    }

    @Test(
        "Control codes terminals send for named keys",
        arguments: [
            (0x0D, Key.enter), (0x0A, .enter), (0x09, .tab), (0x7F, .backspace), (0x08, .backspace),
            (0x1B, .escape),
        ] as [(UInt32, Key)]
    )
    func namedControlCodes(_ value: UInt32, _ key: Key) {
        #expect(KeyMapping.input(for: .character(value)) == .key(key))
    }

    @Test("Ctrl-letters other than Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M are .ctrl(letter)")
    func controlLetters() {
        let named: Set<Character> = ["h", "i", "j", "m"]
        for (offset, letter) in "abcdefghijklmnopqrstuvwxyz".enumerated() where !named.contains(letter) {
            #expect(KeyMapping.input(for: .character(UInt32(offset + 1))) == .key(.ctrl(letter)))
        }
        #expect(KeyMapping.input(for: .character(3)) == .key(.ctrl("c")))
        #expect(KeyMapping.input(for: .character(4)) == .key(.ctrl("d")))
        #expect(KeyMapping.input(for: .character(21)) == .key(.ctrl("u")))
        #expect(KeyMapping.input(for: .character(19)) == .key(.ctrl("s")))
    }

    @Test(
        "Curses key codes",
        arguments: [
            (cn_key_up(), Key.up), (cn_key_down(), .down), (cn_key_left(), .left), (cn_key_right(), .right),
            (cn_key_home(), .home), (cn_key_end(), .end), (cn_key_ppage(), .pageUp),
            (cn_key_npage(), .pageDown),
            (cn_key_btab(), .backTab), (cn_key_backspace(), .backspace), (cn_key_dc(), .delete),
            (cn_key_enter(), .enter), (cn_key_a1(), .home), (cn_key_c1(), .end), (cn_key_a3(), .pageUp),
            (cn_key_c3(), .pageDown), (cn_key_find(), .home), (cn_key_select(), .end),
            (cn_key_sleft(), .left), (cn_key_sright(), .right), (cn_key_sr(), .up), (cn_key_sf(), .down),
            (cn_key_shome(), .home), (cn_key_send(), .end), (cn_key_sdc(), .delete),
        ] as [(Int32, Key)]
    )
    func keyCodes(_ code: Int32, _ key: Key) {
        #expect(KeyMapping.input(for: .code(code)) == .key(key))
    }

    @Test("F1 to F12", arguments: 1...12)
    func functionKeys(_ number: Int) {
        #expect(KeyMapping.input(for: .code(cn_key_f(Int32(number)))) == .key(.function(number)))
    }

    @Test("KEY_RESIZE asks the backend for the new size")
    func resize() {
        #expect(KeyMapping.input(for: .code(cn_key_resize())) == .resize)
    }

    @Test(
        "Controls the UI has no use for, and characters that must never be typed, are dropped",
        arguments: [
            0x00, 0x1C, 0x1D, 0x1E, 0x1F,  // Ctrl-@, Ctrl-\, Ctrl-], Ctrl-^, Ctrl-_
            0x85, 0x9B,  // C1: NEL, CSI
            0x202E, 0x2066, 0x2028,  // bidi override, bidi isolate, line separator
            0xD800, 0x11_0000,  // a surrogate and a value beyond Unicode
        ] as [UInt32]
    )
    func droppedCharacters(_ value: UInt32) {
        #expect(KeyMapping.input(for: .character(value)) == nil)
    }

    @Test("Zero-width joiners and non-joiners are typed: emoji and Persian and Indic text need them")
    func joinersAreTyped() {
        #expect(KeyMapping.input(for: .character(0x200D)) == .key(.char("\u{200D}")))
        #expect(KeyMapping.input(for: .character(0x200C)) == .key(.char("\u{200C}")))
    }

    @Test("Key codes without a Key (Insert, F13, mouse) are dropped")
    func droppedCodes() {
        #expect(KeyMapping.input(for: .code(KEY_IC)) == nil)
        #expect(KeyMapping.input(for: .code(cn_key_f(13))) == nil)
        #expect(KeyMapping.input(for: .code(KEY_MOUSE)) == nil)
    }

    @Test("Extra escape sequences cover both keypad modes and VT220 function keys")
    func escapeSequences() {
        let bound = Dictionary(
            EscapeSequences.bindings.map { ($0.sequence, $0.code) }, uniquingKeysWith: { first, _ in first })
        #expect(bound["\u{1B}[A"] == cn_key_up())
        #expect(bound["\u{1B}OA"] == cn_key_up())
        #expect(bound["\u{1B}[Z"] == cn_key_btab())
        #expect(bound["\u{1B}[3~"] == cn_key_dc())
        #expect(bound["\u{1B}OP"] == cn_key_f(1))
        #expect(bound["\u{1B}[24~"] == cn_key_f(12))
        #expect(bound.count == EscapeSequences.bindings.count)
    }
}
