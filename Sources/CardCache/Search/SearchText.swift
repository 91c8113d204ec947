public import CardModels
import Foundation

/// How card text and queries are made comparable, so that `zoe` finds `Zoë`, `ＡＤＡ` finds
/// `Ada`, `데이터` finds `서울데이터랩` and `5550100` finds `+82 2-555-0100`.
///
/// The same folding is applied to what is indexed and to what is typed, in Swift rather than by
/// SQLite's tokenizers: the trigram tokenizer of the system SQLite (3.40 on Debian 12) cannot
/// remove diacritics (`remove_diacritics` came to it in 3.45), and doing it once here keeps both
/// indexes and the "which field matched" check in agreement.
public enum SearchText {
    /// The fields a search looks at, in the order a match is reported: the first one that
    /// matches is the hit's field (the descriptors' ``CardModels/FieldDescriptor/searchRank``).
    public static let fields: [CardField] = CardField.searched

    /// `text` lowercased, in compatibility form (full-width `Ａ` is `a`, `ﬁ` is `fi`), without the
    /// diacritics of Latin, Greek and Cyrillic letters (`é` is `e`, `ł` stays `ł`), and composed
    /// again (so Hangul syllables stay syllables). Marks of other scripts — the voicing marks
    /// of kana, Indic vowel signs — are kept: there they change the letter, not its accent.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        let decomposed = text.lowercased().decomposedStringWithCompatibilityMapping
        var kept = String.UnicodeScalarView()
        var base: Unicode.Scalar = " "
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark {
                if isAccentable(base) { continue }
            } else {
                base = scalar
            }
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    /// Whether a nonspacing mark after `base` is an accent to drop: Latin, Greek, Cyrillic and
    /// Latin Extended Additional (Vietnamese) letters.
    private static func isAccentable(_ base: Unicode.Scalar) -> Bool {
        base.value < 0x0530 || (0x1E00...0x1FFF).contains(base.value)
    }

    /// The digits of `text` (ASCII and other decimal digits, as ASCII), so a phone number is
    /// matched whatever spaces and punctuation it was written with.
    public static func digits(_ text: String) -> String {
        var digits = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let value = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                digits.append(Unicode.Scalar(UInt8(48 + Int(value))))
            }
        }
        return String(digits)
    }

    /// Whether `text` reads as (part of) a phone number: at least one digit, and otherwise only
    /// spaces and `+ - ( ) . /`.
    static func isPhoneLike(_ text: String) -> Bool {
        var digit = false
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal {
                digit = true
            } else if !" +-()./".unicodeScalars.contains(scalar) {
                return false
            }
        }
        return digit
    }

    /// The one text a field contributes to the indexes: list fields joined with a line break
    /// (so a match never spans two items), the phone as its digits.
    static func indexed(_ field: CardField, of fields: CardFields) -> String {
        switch field.kind {
        case .phone: return digits(fields[field])
        case .list: return fold(fields[value: field].list.joined(separator: "\n"))
        case .shortText, .longText, .email, .url, .date, .number: return fold(fields[field])
        }
    }

    /// `folded` as the word index sees it: every character of a script written without spaces
    /// (Hangul, CJK ideographs, kana, Thai, Lao, Khmer, Myanmar) stands alone, so a word of
    /// such a script is found from any of its characters; everything else is left to SQLite's
    /// `unicode61` tokenizer (words split at spaces and punctuation).
    static func words(_ folded: String) -> String {
        guard folded.unicodeScalars.contains(where: isUnspaced) else { return folded }
        var out = ""
        out.reserveCapacity(folded.utf8.count * 2)
        for character in folded {
            if let first = character.unicodeScalars.first, isUnspaced(first) {
                out += " "
                out.append(character)
                out += " "
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The phone column of the word index: every suffix of the digits as a word, so that a
    /// prefix query (`55*`) finds the digits anywhere in the number.
    static func phoneWords(_ digits: String) -> String {
        let bytes = Array(digits.utf8)
        return (0..<bytes.count).map { String(decoding: bytes[$0...], as: UTF8.self) }.joined(separator: " ")
    }

    /// Scripts written without spaces between words.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1100...0x11FF,  // Hangul Jamo
            0x1780...0x17FF,  // Khmer
            0x3040...0x30FF,  // Hiragana, Katakana
            0x3130...0x318F,  // Hangul Compatibility Jamo
            0x31F0...0x31FF,  // Katakana Phonetic Extensions
            0x3400...0x4DBF,  // CJK Extension A
            0x4E00...0x9FFF,  // CJK Unified Ideographs
            0xAC00...0xD7AF,  // Hangul Syllables
            0xF900...0xFAFF,  // CJK Compatibility Ideographs
            0x20000...0x3134F:  // CJK Extensions B–G
            true
        default: false
        }
    }
}
