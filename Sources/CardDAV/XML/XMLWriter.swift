/// Escaping for the few XML bodies the client sends (PROPFIND, REPORT): the bodies are fixed
/// templates, and only hrefs and sync tokens, which come from the server, are put in them.
enum XMLText {
    /// `text` safe inside an element or a quoted attribute: `&`, `<`, `>`, `"` escaped, and CR
    /// as `&#13;` so it survives the receiver's end-of-line handling.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x0D || $0 == 0x22 }) else {
            return text
        }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\r": output += "&#13;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
