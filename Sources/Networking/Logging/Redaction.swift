public import Foundation
import NIOHTTP1

/// What counts as secret, and how it is hidden: on by default.
///
/// A header is sensitive if its name is one of ``sensitiveHeaderNames`` (by default
/// `Authorization`, `Cookie`, `Set-Cookie`) or contains one of ``sensitiveNameFragments``
/// (by default `token`, `password`, `secret`); a query or form parameter, or a JSON field at any
/// depth, is sensitive if its name contains a fragment. Names compare case-insensitively, so
/// `refreshToken`, `X-Api-Token`, `newPassword` and `client_secret` are all hidden. A sensitive
/// value is shown as ``placeholder`` (`<private>`).
///
/// Besides hiding values by name, whatever text a sensitive field of the request held (a bearer
/// token, a password) is also scrubbed from free text about that exchange: body previews,
/// error descriptions and tags.
public struct Redaction: Sendable, Hashable {
    /// What a hidden value is shown as.
    public static let placeholder = "<private>"

    /// Whether anything is hidden. Turn off only for local debugging.
    public var isEnabled: Bool
    /// Case-insensitive fragments: a header, parameter or JSON field whose name contains one is sensitive.
    public var sensitiveNameFragments: [String] {
        didSet { fragmentBytes = NeedleSet(sensitiveNameFragments) }
    }
    /// Header names that are always sensitive, case-insensitive.
    public var sensitiveHeaderNames: Set<String> {
        didSet { headerNameBytes = NeedleSet(sensitiveHeaderNames) }
    }
    /// Names of query and form fields that are sensitive as a whole name, case-insensitive: by
    /// default OAuth 2.0's `code` and `code_verifier` (a token request's form), which no fragment
    /// could name without hiding every JSON `code` (the card API's error codes) too.
    public var sensitiveFormNames: Set<String> {
        didSet { formNameBytes = NeedleSet(sensitiveFormNames) }
    }

    private(set) var fragmentBytes: NeedleSet
    private var headerNameBytes: NeedleSet
    private var formNameBytes: NeedleSet

    /// A redaction policy; the defaults are the ones described above.
    public init(
        sensitiveNameFragments: [String] = ["token", "password", "secret"],
        sensitiveHeaderNames: Set<String> = ["Authorization", "Cookie", "Set-Cookie"],
        sensitiveFormNames: Set<String> = ["code", "code_verifier"],
        isEnabled: Bool = true
    ) {
        self.isEnabled = isEnabled
        self.sensitiveNameFragments = sensitiveNameFragments
        self.sensitiveHeaderNames = sensitiveHeaderNames
        self.sensitiveFormNames = sensitiveFormNames
        self.fragmentBytes = NeedleSet(sensitiveNameFragments)
        self.headerNameBytes = NeedleSet(sensitiveHeaderNames)
        self.formNameBytes = NeedleSet(sensitiveFormNames)
    }

    /// The default policy.
    public static let `default` = Redaction()
    /// Hides nothing.
    public static let disabled = Redaction(isEnabled: false)

    /// Whether a query, form or JSON field called `name` is sensitive.
    public func isSensitive(name: String) -> Bool {
        guard isEnabled else { return false }
        var name = name
        return name.withUTF8 { ByteSearch.containsCaseInsensitive($0, anyOf: fragmentBytes) }
    }

    /// Whether a query or form field called `name` is sensitive as a whole name
    /// (``sensitiveFormNames``).
    public func isSensitive(formName name: String) -> Bool {
        guard isEnabled else { return false }
        var name = name
        return name.withUTF8 { formNameBytes.matchesWhole($0) }
    }

    /// Whether a header called `name` is sensitive.
    public func isSensitive(headerName name: String) -> Bool {
        guard isEnabled else { return false }
        var name = name
        return name.withUTF8 { bytes in
            headerNameBytes.matchesWhole(bytes)
                || ByteSearch.containsCaseInsensitive(bytes, anyOf: fragmentBytes)
        }
    }

    /// The headers with sensitive values replaced by ``placeholder``.
    public func redact(_ headers: Headers) -> Headers {
        redact(headers) { _ in }
    }

    func redact(_ headers: Headers, collectingSecretsInto secrets: inout [String]) -> Headers {
        redact(headers) { Self.collect($0, into: &secrets) }
    }

    /// The redacted headers; `found` is given every sensitive value.
    private func redact(_ headers: Headers, found: (String) -> Void) -> Headers {
        guard isEnabled, headers.storage.contains(where: { isSensitive(headerName: $0.name) }) else { return headers }
        var redacted = Headers()
        for field in headers.storage {
            if isSensitive(headerName: field.name) {
                found(field.value)
                redacted.storage.add(name: field.name, value: Self.placeholder)
            } else {
                redacted.storage.add(name: field.name, value: field.value)
            }
        }
        return redacted
    }

    /// Collects the values of `headers`' sensitive fields, as ``redact(_:collectingSecretsInto:)``
    /// does, without building the redacted headers.
    func collectSecrets(of headers: Headers, into secrets: inout [String]) {
        guard isEnabled else { return }
        for field in headers.storage where isSensitive(headerName: field.name) {
            Self.collect(field.value, into: &secrets)
        }
    }

    /// The URL as text with sensitive query values and any user-info password hidden.
    public func redact(url: URL) -> String {
        var secrets: [String] = []
        return redact(url: url, collectingSecretsInto: &secrets)
    }

    func redact(url: URL, collectingSecretsInto secrets: inout [String]) -> String {
        let text = url.absoluteString
        guard isEnabled else { return text }
        // Without an `@` (user info) or a `?` (query) there is nothing to hide: most URLs.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }
        }
        if plain == true { return text }
        var result = text
        // A password needs user info, which needs an `@`: most URLs skip the lookup.
        if text.utf8.contains(UInt8(ascii: "@")), let password = url.password(percentEncoded: true), !password.isEmpty {
            Self.collect(password, into: &secrets)
            result = result.replacingOccurrences(of: ":\(password)@", with: ":\(Self.placeholder)@")
        }
        guard let mark = result.firstIndex(ofASCII: UInt8(ascii: "?")) else { return result }
        let afterMark = result.index(after: mark)
        let end = result[afterMark...].firstIndex(ofASCII: UInt8(ascii: "#")) ?? result.endIndex
        let query = redact(formEncoded: result[afterMark..<end], collectingSecretsInto: &secrets)
        return String(result[..<afterMark]) + query + result[end...]
    }

    /// `a=1&token=<private>`: URL-encoded pairs with sensitive values hidden.
    func redact(formEncoded query: Substring, collectingSecretsInto secrets: inout [String]) -> String {
        guard isEnabled, !query.isEmpty else { return String(query) }
        var text = String(query)
        let needsWork = text.withUTF8 {
            ByteSearch.containsCaseInsensitive($0, anyOf: fragmentBytes)
                || ByteSearch.containsCaseInsensitive($0, anyOf: formNameBytes)
        }
        // A fragment may also hide behind percent-encoding (`%74oken`).
        guard needsWork || query.contains("%") else { return text }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let name = (rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? rawName
            guard parts.count == 2, isSensitive(name: name) || isSensitive(formName: name) else { return String(pair) }
            let value = String(parts[1])
            Self.collect(value, into: &secrets)
            Self.collect(
                value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value, into: &secrets)
            return "\(rawName)=\(Self.placeholder)"
        }.joined(separator: "&")
    }

    /// Remembers a secret value and, for `Bearer xyz`-style values, its parts, each with the
    /// other forms a message may quote it in (``SecretForms``), for scrubbing free text.
    static func collect(_ value: String, into secrets: inout [String]) {
        let first = secrets.count
        collectPlain(value, into: &secrets)
        for plain in secrets[first...] { SecretForms.append(of: plain, to: &secrets) }
    }

    /// The value and its parts as they are (no other forms): bytes for the usual ASCII token,
    /// characters otherwise (``collectCharacters(_:into:)`` is the reference it must match).
    static func collectPlain(_ value: String, into secrets: inout [String]) {
        let utf8 = value.utf8
        // A string has at most as many characters as UTF-8 bytes.
        guard utf8.count >= Scrubber.minimumSecretLength else { return }
        // ASCII without CR (the CR LF pair is one character) has one character per byte, so
        // tokens, the usual case, are measured and split on bytes: the byte ranges of the parts.
        let found = utf8.withContiguousStorageIfAvailable { bytes -> [Range<Int>]? in
            var parts: [Range<Int>] = []
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 || byte == 0x0D { return nil }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") {
                    if index - start >= Scrubber.minimumSecretLength { parts.append(start..<index) }
                    start = index + 1
                }
            }
            // The last part, unless it is the whole value.
            if start > 0 && bytes.count - start >= Scrubber.minimumSecretLength { parts.append(start..<bytes.count) }
            return parts
        }
        guard let found, let parts = found else {
            collectCharacters(value, into: &secrets)
            return
        }
        secrets.append(value)
        for part in parts {
            let start = utf8.index(utf8.startIndex, offsetBy: part.lowerBound)
            let end = utf8.index(utf8.startIndex, offsetBy: part.upperBound)
            secrets.append(String(value[start..<end]))
        }
    }

    /// `text` with every secret in `secrets` replaced by ``placeholder`` wherever it appears in
    /// any form: as it is, its parts (`Bearer xyz` → `xyz`), escaped for a terminal, for Swift
    /// or JSON, percent-encoded, and each long run of its plain characters (so a token with a
    /// line break is hidden however a message quotes it). Values shorter than 4 characters are
    /// left alone (they would mangle the text).
    ///
    /// - Parameters:
    ///   - text: free text, such as a server's message or an error description.
    ///   - secrets: the values to hide (tokens, passwords).
    public static func scrub(_ text: String, hiding secrets: [String]) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        var all: [String] = []
        for secret in secrets { collect(secret, into: &all) }
        return Scrubber.scrub(text, secrets: all)
    }

    /// ``collect(_:into:)`` for text that is not plain ASCII: counts and splits characters.
    static func collectCharacters(_ value: String, into secrets: inout [String]) {
        guard value.count >= Scrubber.minimumSecretLength else { return }
        secrets.append(value)
        for part in value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" })
        where part.count >= Scrubber.minimumSecretLength && part.count < value.count {
            secrets.append(String(part))
        }
    }
}

/// Replaces known secret values in free text.
enum Scrubber {
    /// Shorter values are not scrubbed from free text (they would mangle it); they are still
    /// hidden wherever their field name says they are sensitive.
    static let minimumSecretLength = 4

    static func scrub(_ text: String, secrets: [String]) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let scrubbed = scrub(bytes, secrets: secrets)
        return scrubbed.count == bytes.count && scrubbed == bytes ? text : String(decoding: scrubbed, as: UTF8.self)
    }

    static func scrub(_ bytes: [UInt8], secrets: [String]) -> [UInt8] {
        guard !secrets.isEmpty, !bytes.isEmpty else { return bytes }
        var result = bytes
        let placeholder = Array(Redaction.placeholder.utf8)
        // Longest first, so a whole value goes before the parts it contains; each value once.
        let ordered = secrets.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
        for (index, secret) in ordered.enumerated() where index == 0 || ordered[index - 1] != secret {
            let needle = Array(secret.utf8)
            guard var range = ByteSearch.firstRange(of: needle, in: result) else { continue }
            var output: [UInt8] = []
            output.reserveCapacity(result.count)
            var copied = 0
            while true {
                output += result[copied..<range.lowerBound]
                output += placeholder
                copied = range.upperBound
                guard let next = ByteSearch.firstRange(of: needle, in: result, from: copied) else { break }
                range = next
            }
            output += result[copied...]
            result = output
        }
        return result
    }
}
