import CardModels
import CardVCard
import Foundation
import Testing

/// Helpers of the lossless-editing tests.
enum Editing {
    /// A fixture of `Fixtures/Editing` (or of `Fixtures` with a `../` path) read as a resource.
    static func resource(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> VCardResource {
        let resource = try VCardResource(bytes: Fixture.bytes("Editing/" + name))
        #expect(resource.problems == [], sourceLocation: sourceLocation)
        return resource
    }

    /// A resource from lines joined with CR LF.
    static func resource(lines: [String]) throws -> VCardResource {
        try VCardResource(text: lines.joined(separator: "\r\n") + "\r\n")
    }

    /// The text's physical lines (split at CR LF; the text must end with one).
    static func physicalLines(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The content lines with their folds kept (`NOTE:ab\r\n c`): what must come back byte for byte.
    static func foldedLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        for line in physicalLines(bytes) {
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += "\r\n" + line
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// The property name of a content line, upper-cased, without its group.
    static func key(_ line: String) -> String {
        let name = line.prefix { $0 != ";" && $0 != ":" }
        return String(name.split(separator: ".").last ?? "").uppercased()
    }

    /// The group of a content line, lower-cased, or `nil`.
    static func group(_ line: String) -> String? {
        let name = line.prefix { $0 != ";" && $0 != ":" }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return name[..<dot].lowercased()
    }

    /// Which lines of `before` are gone from `after` and which are new: the lines around them
    /// are the same, byte for byte, in the same order (matched greedily, in order).
    static func difference(_ before: [UInt8], _ after: [UInt8]) -> (gone: [String], new: [String]) {
        difference(foldedLines(before), foldedLines(after))
    }

    /// ``difference(_:_:)`` of two lists of lines: what is not in their longest common
    /// subsequence, in order.
    static func difference(_ old: [String], _ new: [String]) -> (gone: [String], new: [String]) {
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var gone: [String] = []
        var added: [String] = []
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                (i, j) = (i + 1, j + 1)
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                added.append(new[j])
                j += 1
            } else {
                gone.append(old[i])
                i += 1
            }
        }
        return (gone, added)
    }

    /// Expects `after` to be `before` with exactly the lines `gone` replaced or removed and the
    /// lines `new` written instead (unfolded), every other line byte for byte as it was.
    static func expectChange(
        from before: VCardResource, to after: VCardResource, gone: [String], new: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let difference = difference(before.bytes, after.bytes)
        #expect(difference.gone.map(unfold) == gone, sourceLocation: sourceLocation)
        #expect(difference.new.map(unfold) == new, sourceLocation: sourceLocation)
        expectWellFormed(after, comparedTo: before, sourceLocation: sourceLocation)
    }

    /// CR LF after every line, and every line that is not one of `before`'s at most 75 octets.
    static func expectWellFormed(
        _ after: VCardResource, comparedTo before: VCardResource, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let bytes = after.bytes
        for (index, byte) in bytes.enumerated() {
            if byte == 10 { #expect(index > 0 && bytes[index - 1] == 13, "a bare LF", sourceLocation: sourceLocation) }
            if byte == 13 {
                #expect(index + 1 < bytes.count && bytes[index + 1] == 10, "a bare CR", sourceLocation: sourceLocation)
            }
        }
        #expect(bytes.suffix(2) == [13, 10], sourceLocation: sourceLocation)
        // Folds never split a UTF-8 sequence: the whole text is as valid as it was.
        if String(validating: before.bytes, as: UTF8.self) != nil {
            #expect(String(validating: bytes, as: UTF8.self) != nil, sourceLocation: sourceLocation)
        }
        let old = Set(physicalLines(before.bytes))
        for line in physicalLines(bytes) where !old.contains(line) {
            #expect(line.utf8.count <= 75, "an unfolded line: \(line)", sourceLocation: sourceLocation)
        }
    }

    static func unfold(_ line: String) -> String {
        line.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
    }
}
