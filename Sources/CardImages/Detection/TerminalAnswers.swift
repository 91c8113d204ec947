/// What a terminal answered to the probe's queries, parsed from the raw bytes it sent back.
public struct TerminalAnswers: Sendable, Hashable {
    /// The reply to the kitty graphics query (`ESC _ G i=31;OK ESC \`): `true` for OK,
    /// `false` for an error reply, `nil` when there was none.
    public var kittyGraphics: Bool?
    /// The primary device attributes (DA1, `ESC [ ? 62;4;22 c`): `4` means sixel. `nil`
    /// when there was no reply.
    public var deviceAttributes: [Int]?
    /// The cell size in pixels (`ESC [ 6 ; height ; width t`), when answered.
    public var cellPixels: PixelSize?

    /// Answers.
    public init(kittyGraphics: Bool? = nil, deviceAttributes: [Int]? = nil, cellPixels: PixelSize? = nil) {
        self.kittyGraphics = kittyGraphics
        self.deviceAttributes = deviceAttributes
        self.cellPixels = cellPixels
    }

    /// Whether the terminal answered anything at all.
    public var answeredAnything: Bool { kittyGraphics != nil || deviceAttributes != nil || cellPixels != nil }

    /// Whether DA1 lists sixel graphics (attribute 4).
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// Whether the DA1 reply (always the last one asked for, and answered by every terminal)
    /// has arrived, so the probe can stop reading.
    public var complete: Bool { deviceAttributes != nil }

    /// Parses every reply found in `bytes`; anything else (typed keys, unknown replies) is
    /// skipped.
    public static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
        var answers = TerminalAnswers()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "_"):
                // APC … ESC \ : a kitty reply when it starts with G.
                guard let end = find([0x1B, 0x5C], in: bytes, from: index + 2) else { return answers }
                let body = bytes[(index + 2)..<end]
                if body.first == UInt8(ascii: "G") {
                    let text = String(decoding: body.dropFirst(), as: UTF8.self)
                    if text.hasPrefix("i=31;") || text.contains("i=31;") {
                        answers.kittyGraphics = text.hasSuffix(";OK")
                    }
                }
                index = end + 2
            case UInt8(ascii: "["):
                // CSI: parameters, then a final byte in 0x40...0x7E.
                var cursor = index + 2
                while cursor < bytes.count, !(0x40...0x7E).contains(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count else { return answers }
                let parameters = String(decoding: bytes[(index + 2)..<cursor], as: UTF8.self)
                switch bytes[cursor] {
                case UInt8(ascii: "c") where parameters.hasPrefix("?"):
                    answers.deviceAttributes = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
                case UInt8(ascii: "t"):
                    let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                    if numbers.count == 3, numbers[0] == 6, numbers[1] > 0, numbers[2] > 0, numbers[1] < 1000,
                        numbers[2] < 1000
                    {
                        answers.cellPixels = PixelSize(width: numbers[2], height: numbers[1])
                    }
                default: break
                }
                index = cursor + 1
            default:
                index += 1
            }
        }
        return answers
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index + 1] == needle[1] { return index }
            index += 1
        }
        return nil
    }
}

/// What tmux said about itself and the terminal it runs in.
public struct TmuxAnswers: Sendable, Hashable {
    /// `allow-passthrough` of our pane (`on` or `all` → `true`), `nil` when unknown.
    public var allowPassthrough: Bool?
    /// The outer terminal's `TERM` (`#{client_termname}`), e.g. `xterm-kitty`.
    public var clientTermName: String?
    /// The outer terminal's self-description (`#{client_termtype}`, from its XTVERSION or DA2
    /// reply), e.g. `kitty(0.31.0)` or `iTerm2 3.5.0`.
    public var clientTermType: String?

    /// Answers.
    public init(allowPassthrough: Bool? = nil, clientTermName: String? = nil, clientTermType: String? = nil) {
        self.allowPassthrough = allowPassthrough
        self.clientTermName = clientTermName
        self.clientTermType = clientTermType
    }
}
