#if canImport(Glibc)
    import Glibc
#endif

extension termios {
    /// The fields a program changes: flags and control characters.
    var comparable: [UInt64] {
        var values = [UInt64(c_iflag), UInt64(c_oflag), UInt64(c_cflag), UInt64(c_lflag)]
        withUnsafeBytes(of: c_cc) { values += $0.map(UInt64.init) }
        return values
    }
}

extension Array where Element == UInt8 {
    /// Whether `text`'s UTF-8 bytes occur in this byte string.
    func contains(text: String) -> Bool {
        firstRange(of: Array(text.utf8)) != nil
    }
}
