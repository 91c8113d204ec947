/// Puts right a character of an email's local part that OCR was unsure of, when the card's
/// name says what it must be: `k.mccarthty` read with 62 % confidence on the card of
/// "Ken McCarthy" (read with 96 %) is `k.mccarthy`. Only one edit (two in a local part of
/// eight characters or more), only toward one of the ways addresses are made from names,
/// only when the email was read with less confidence than 75 % and the name with 85 % or
/// more; always with a note.
/// An address that differs from the name on purpose (`jon.smith` for John Smith) is printed
/// clearly and read with high confidence, so it is left alone.
enum EmailRepair {
    /// The email line's confidence must be below this…
    static let unsureEmail = 75.0
    /// …and the name's at least this.
    static let sureName = 85.0

    /// The local parts made from a name: `ada.lovelace`, `alovelace`, `a.lovelace`, `ada`,
    /// `lovelace`, `ada_lovelace`, `ada-lovelace`, `adalovelace`, `lovelace.ada`.
    static func localParts(for name: String) -> [String] {
        let parts = name.words.map(\.foldedLetters).filter { !$0.isEmpty }
        guard parts.count >= 2, let first = parts.first, let last = parts.last, let initial = first.first else {
            return []
        }
        return [
            first + "." + last, String(initial) + last, String(initial) + "." + last, first, last, first + "_" + last,
            first + "-" + last, first + last, last + "." + first, first + String(last.first!),
        ]
    }

    /// The one name-made local part nearest `read`: one edit away, or two for a local part of
    /// eight characters or more (`k.mccartlty` → `k.mccarthy`: OCR reads `h` as `lt`, `m` as
    /// `rn`); `nil` when there is none, or more than one at that distance, or `read` already
    /// is one.
    static func corrected(_ read: String, name: String) -> String? {
        let candidates = localParts(for: name)
        guard !candidates.contains(read) else { return nil }
        let limit = read.count >= 8 ? 2 : 1
        for distance in 1...limit {
            let close = Set(candidates.filter { editDistance($0, read, limit: distance) <= distance })
            if !close.isEmpty { return close.count == 1 ? close.first : nil }
        }
        return nil
    }

    /// The Levenshtein distance of `a` and `b`, or `limit + 1` once it is sure to exceed `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a)
        let b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
