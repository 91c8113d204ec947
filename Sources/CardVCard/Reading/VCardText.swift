/// vCard's text escapes (RFC 6350 §3.4): `\\`, `\,`, `\;` and `\n` (or `\N`) in values.
public enum VCardText {
    /// `text` with its escapes undone. An unknown escape keeps its backslash (vCard 2.1 files
    /// hold Windows paths such as `C:\Users`).
    public static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                escaping = false
                switch scalar {
                case "n", "N": out.append("\n")
                case ",", ";", "\\", ":": out.append(scalar)
                default:
                    out.append("\\")
                    out.append(scalar)
                }
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// The parts of `text` between unescaped `separator`s, each unescaped.
    public static func split(_ text: String, separator: Unicode.Scalar) -> [String] {
        var parts: [String] = []
        var start = text.unicodeScalars.startIndex
        var index = start
        var escaping = false
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if escaping {
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == separator {
                parts.append(unescape(Substring(scalars[start..<index])))
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        parts.append(unescape(Substring(scalars[start..<scalars.endIndex])))
        return parts
    }

    /// `text` escaped for a text value: backslash, comma, semicolon and line breaks.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "," || $0 == ";" || $0 == "\n" || $0 == "\r" })
        else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousCR { out.append(contentsOf: "\\n".unicodeScalars) }
            default: out.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return String(out)
    }

    /// The parts escaped and joined with `separator` (a structured or list value).
    public static func join(_ parts: [String], separator: String) -> String {
        parts.map(escape).joined(separator: separator)
    }
}
