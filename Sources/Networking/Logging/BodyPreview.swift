import Foundation
import NIOCore

/// Turns a body into a short, redacted text for logs: text is truncated, binary is summarised,
/// JSON and form fields with sensitive names are hidden, known secret values are scrubbed.
struct BodyPreviewer {
    let redaction: Redaction
    let limit: Int

    /// What the body is, from its content type and, when there is none, its first bytes.
    enum Kind: Equatable {
        case json, form, text, multipart, binary
    }

    private static let multipart = NeedleSet(["multipart/"])
    private static let json = NeedleSet(["json"])
    private static let form = NeedleSet(["application/x-www-form-urlencoded"])
    private static let textual = NeedleSet(["text/", "xml", "javascript", "yaml", "graphql"])

    static func kind(contentType: String?, sample: some Collection<UInt8>) -> Kind {
        if var contentType {
            return contentType.withUTF8 { type in
                if ByteSearch.containsCaseInsensitive(type, anyOf: multipart) { return .multipart }
                if ByteSearch.containsCaseInsensitive(type, anyOf: json) { return .json }
                if ByteSearch.containsCaseInsensitive(type, anyOf: form) { return .form }
                if ByteSearch.containsCaseInsensitive(type, anyOf: textual) { return .text }
                return .binary
            }
        }
        guard looksLikeText(sample) else { return .binary }
        let first = sample.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .text
    }

    /// UTF-8 without NUL or other control bytes besides tab, CR and LF (a cut last character is fine).
    static func looksLikeText(_ sample: some Collection<UInt8>) -> Bool {
        let prefix = Array(sample.prefix(512))
        if prefix.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }) {
            return false
        }
        var trimmed = prefix[...]
        for _ in 0..<3 where String(validating: trimmed, as: UTF8.self) == nil && !trimmed.isEmpty {
            trimmed = trimmed.dropLast()
        }
        return String(validating: trimmed, as: UTF8.self) != nil
    }

    /// Extra bytes redacted and scrubbed beyond the limit, so that a secret straddling the cut
    /// is removed whole before cutting, never left half visible.
    static let slack = 1024

    /// The preview of an in-memory body, or `nil` for an empty one.
    func preview(_ bytes: ByteBuffer, contentType: String?, secrets: inout [String]) -> String? {
        bytes.withUnsafeReadableBytes { raw in
            preview(raw.assumingMemoryBound(to: UInt8.self), contentType: contentType, secrets: &secrets)
        }
    }

    /// The preview of a body held in `data`, or `nil` for an empty one (no copy is made).
    func preview(_ data: Data, contentType: String?, secrets: inout [String]) -> String? {
        data.withUnsafeBytes { raw in
            preview(raw.assumingMemoryBound(to: UInt8.self), contentType: contentType, secrets: &secrets)
        }
    }

    /// The preview of `view`; every scan runs over contiguous bytes.
    private func preview(_ view: UnsafeBufferPointer<UInt8>, contentType: String?, secrets: inout [String]) -> String? {
        let total = view.count
        guard total > 0 else { return nil }
        let kind = Self.kind(contentType: contentType, sample: view.prefix(512))
        let window = limit + Self.slack + (secrets.map(\.utf8.count).max() ?? 0)
        switch kind {
        case .binary:
            return "‹binary \(ByteCountText.format(Int64(total)))\(contentType.map { " " + $0 } ?? "")›"
        case .multipart:
            return "‹multipart \(ByteCountText.format(Int64(total)))›"
        case .json:
            let needsRedaction =
                redaction.isEnabled
                && ByteSearch.containsCaseInsensitive(view, anyOf: redaction.fragmentBytes)
            if needsRedaction {
                let (text, truncated) = JSONRedactor(redaction: redaction).redact(
                    view, limit: window, secrets: &secrets)
                return finish(text, total: total, truncated: truncated, secrets: secrets)
            }
        case .form:
            if redaction.isEnabled {
                let text = String(decoding: UnsafeBufferPointer(rebasing: view.prefix(window)), as: UTF8.self)
                let redacted = redaction.redact(formEncoded: text[...], collectingSecretsInto: &secrets)
                return finish(Array(redacted.utf8), total: total, truncated: total > window, secrets: secrets)
            }
        case .text:
            break
        }
        return finish(
            Array(UnsafeBufferPointer(rebasing: view.prefix(window))), total: total, truncated: total > window,
            secrets: secrets)
    }

    /// Scrubs secrets, cuts to `limit` on a character boundary, and says how much was left out.
    private func finish(_ bytes: [UInt8], total: Int, truncated: Bool, secrets: [String]) -> String {
        let scrubbed = redaction.isEnabled ? Scrubber.scrub(bytes, secrets: secrets) : bytes
        var cut = scrubbed.prefix(limit)
        var wasCut = truncated || cut.count < scrubbed.count
        var valid = String(validating: cut, as: UTF8.self)
        // Step back over a partial UTF-8 character.
        while valid == nil, !cut.isEmpty, scrubbed.count - cut.count < 4 {
            cut = cut.dropLast()
            wasCut = true
            valid = String(validating: cut, as: UTF8.self)
        }
        var text = valid ?? String(decoding: cut, as: UTF8.self)
        if wasCut { text += "… (\(ByteCountText.format(Int64(total))) in all)" }
        return text
    }

    /// The summary of a body not held in memory (a file upload, multipart with files).
    func summary(of body: Request.Body, contentType: String?) -> String? {
        guard !body.isEmpty else { return nil }
        if let parts = body.multipartPartCount {
            return "‹multipart \(parts) part\(parts == 1 ? "" : "s"), \(ByteCountText.format(body.length))›"
        }
        return "‹file \(ByteCountText.format(body.length))\(contentType.map { " " + $0 } ?? "")›"
    }
}
