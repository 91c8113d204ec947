import Foundation
import TextSafety

/// The other forms a secret takes when an error or a message quotes it, so that scrubbing
/// finds it whichever way it was written.
///
/// A token with a control character in it (a server that sent `"cwa_…\n"`) is quoted escaped
/// by AsyncHTTPClient (`invalidHeaderFieldValues(["Bearer cwa_…\n"])`, Swift's `\n`), by
/// ``TerminalText`` (`^J`), by JSON (`\n` or `\u000a`) or percent-encoded in a URL (`%0A`): none of
/// those contains the raw value. Plain tokens (letters, digits, `-` and `_`) look the same in
/// every form, so they cost nothing here.
enum SecretForms {
    /// Shorter runs of plain characters are not hidden on their own (they are too likely to be
    /// ordinary words); longer ones are, for every escaping leaves them as they are.
    static let minimumRunLength = 8

    /// Appends the forms of `value` that differ from it.
    static func append(of value: String, to secrets: inout [String]) {
        guard value.utf8.contains(where: { !isUnreserved($0) }) else { return }
        var forms: [String] = []
        forms.append(TerminalText.escaped(value))
        forms.append(String(String(reflecting: value).dropFirst().dropLast()))
        forms.append(json(value, escapingSlashes: false))
        forms.append(json(value, escapingSlashes: true))
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved) { forms.append(encoded) }
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.append(encoded) }
        // Runs of characters every escaping keeps as they are.
        var run: [UInt8] = []
        func endRun() {
            if run.count >= minimumRunLength { forms.append(String(decoding: run, as: UTF8.self)) }
            run.removeAll(keepingCapacity: true)
        }
        for byte in value.utf8 {
            if isUnreserved(byte) { run.append(byte) } else { endRun() }
        }
        endRun()
        for form in forms where form != value && form.utf8.count >= Scrubber.minimumSecretLength {
            secrets.append(form)
        }
    }

    /// `A–Z a–z 0–9 - . _ ~`: RFC 3986's unreserved characters.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// The inside of the JSON string literal of `value` (as `JSONEncoder` writes it).
    private static func json(_ value: String, escapingSlashes: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [] : [.withoutEscapingSlashes]
        guard let data = try? encoder.encode([value]), data.count >= 4 else { return value }
        return String(decoding: data.dropFirst(2).dropLast(2), as: UTF8.self)
    }
}
