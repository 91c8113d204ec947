import CardImages
public import CardModels
import CardVCard
public import CardWalletUI
import Foundation

/// A card as a QR code: its vCard 3.0 without the photo (``CardVCard/VCardWriter/compact(_:budget:)``),
/// with as many fields as fit where it is shown.
public enum QRMaker {
    /// The most bytes a QR code holds at level M (version 40, byte mode).
    public static let capacity = 2_331

    /// The symbol of the card's vCard with the most fields that fits `box` (a column per
    /// module, a row per two, quiet zone included); when even the name, email and phone do
    /// not fit, the symbol holding just those (the UI says how large the terminal must be).
    ///
    /// - Throws: ``CardWalletUI/UIFailure`` when not even those fit a QR code.
    public static func symbol(for card: Card, fitting box: PictureBox) throws(UIFailure) -> QRSymbol {
        let writer = VCardWriter(version: .v30)
        guard let whole = writer.compact(card, budget: capacity) else {
            throw UIFailure(.other, message: "The card's name, email and phone are too long for a QR code.")
        }
        let maximumSide = min(box.columns, box.rows * 2)
        func fits(_ code: QRCode) -> Bool { code.sizeWithQuietZone <= maximumSide }
        if let code = try? QRCode(text: String(decoding: whole, as: UTF8.self)), fits(code) {
            return symbol(code, text: whole, whole: whole)
        }
        // The largest budget whose text makes a symbol that fits; else the smallest text there is.
        var low = 0
        var high = whole.count - 1
        var best: (QRCode, [UInt8])?
        var smallest: [UInt8]?
        while low <= high {
            let budget = (low + high) / 2
            guard let text = writer.compact(card, budget: budget) else {
                low = budget + 1
                continue
            }
            smallest = text
            if let code = try? QRCode(text: String(decoding: text, as: UTF8.self)), fits(code) {
                best = (code, text)
                low = budget + 1
            } else {
                high = budget - 1
            }
        }
        if let (code, text) = best { return symbol(code, text: text, whole: whole) }
        guard let text = smallest ?? writer.compact(card, budget: whole.count),
            let code = try? QRCode(text: String(decoding: text, as: UTF8.self))
        else {
            throw UIFailure(.other, message: "The card's name, email and phone are too long for a QR code.")
        }
        return symbol(code, text: text, whole: whole)
    }

    /// The vCard text a symbol holds for `card` within `budget` bytes (for tests and `cardwallet qr`).
    public static func text(for card: Card, budget: Int = capacity) -> String? {
        VCardWriter(version: .v30).compact(card, budget: budget).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func symbol(_ code: QRCode, text: [UInt8], whole: [UInt8]) -> QRSymbol {
        QRSymbol(size: code.size, modules: code.modules, note: note(text: text, whole: whole))
    }

    /// What the shorter text leaves out, by property: `without NOTE, ADR` (nil when nothing).
    static func note(text: [UInt8], whole: [UInt8]) -> String? {
        guard text.count < whole.count else { return nil }
        let kept = Set(names(in: text))
        var missing: [String] = []
        for name in names(in: whole) where !kept.contains(name) && !missing.contains(name) { missing.append(name) }
        guard !missing.isEmpty else { return "shortened to fit" }
        let labels = missing.map { label(of: $0) }
        return "to fit, without "
            + (labels.count <= 4
                ? labels.joined(separator: ", ")
                : labels.prefix(3).joined(separator: ", ") + " and \(labels.count - 3) more")
    }

    private static func names(in text: [UInt8]) -> [String] {
        String(decoding: text, as: UTF8.self).components(separatedBy: "\r\n").compactMap { line in
            guard let first = line.first, first != " ", first != "\t" else { return nil }
            let head = line.prefix { $0 != ":" && $0 != ";" }
            let name = head.split(separator: ".").last.map(String.init) ?? String(head)
            return name.isEmpty ? nil : name.uppercased()
        }
    }

    private static func label(of name: String) -> String {
        switch name {
        case "NOTE": "the bio"
        case "ADR": "the address"
        case "BDAY": "the birthday"
        case "CATEGORIES": "the tags"
        case "URL": "the website"
        case "TITLE": "the title"
        case "ORG": "the company"
        case "UID": "the UID"
        case "X-CARDWALLET-TMI": "the fun facts"
        case "X-CARDWALLET-AVATAR": "the avatar"
        default: name
        }
    }
}
