/// tmux's passthrough: `ESC P tmux ; <sequence with every ESC doubled> ESC \`. tmux (with
/// `allow-passthrough on`) hands the sequence to the outer terminal unchanged; without it,
/// tmux drops it, so callers wrap only what the outer terminal must see (kitty and iTerm2
/// graphics; sixel is drawn by tmux itself when it supports it).
public enum TmuxPassthrough {
    /// `sequence` wrapped for tmux.
    public static func wrap(_ sequence: [UInt8]) -> [UInt8] {
        var output: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        output.reserveCapacity(sequence.count + 16)
        for byte in sequence {
            if byte == 0x1B { output.append(0x1B) }
            output.append(byte)
        }
        output += [0x1B, 0x5C]
        return output
    }
}
