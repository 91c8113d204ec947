/// Percent-encoding of URL paths (RFC 3986), shared by the request builder and the CardDAV
/// client's hrefs: one definition of which bytes a path may hold as they are.
public enum PathEscaping {
    /// Whether `byte` may stand in a path as it is: RFC 3986's `pchar` (unreserved, sub-delims,
    /// `:` and `@`) plus `/`.
    @inlinable
    public static func isPathSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// Appends `byte` as `%XX` (upper-case hex, RFC 3986's preferred form).
    public static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
    }

    /// `path` with every byte that may not stand as it is percent-encoded (`%` too).
    public static func escaped(_ path: String) -> String {
        if path.utf8.allSatisfy(isPathSafe) { return path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count + 16)
        for byte in path.utf8 {
            if isPathSafe(byte) { bytes.append(byte) } else { appendEscaped(byte, to: &bytes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
