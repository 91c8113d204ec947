extension StringProtocol {
    /// Whether every byte is ASCII. Such text has one character per byte, except CR LF (one
    /// character), so finding an ASCII character other than CR or LF by bytes gives what
    /// finding it by characters gives, without walking grapheme clusters.
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// `firstIndex(of:)` for an ASCII character other than CR and LF: by bytes for ASCII
    /// text, by characters otherwise (where a combining mark may make `?` part of another
    /// character).
    func firstIndex(ofASCII byte: UInt8) -> Index? {
        if isASCII { return utf8.firstIndex(of: byte) }
        return firstIndex(of: Character(Unicode.Scalar(byte)))
    }
}
