public import CardCache
import CardModels
import CardVCard
public import CardWalletUI
public import Foundation

/// The merged card of a ``CardWalletUI/CardMergePlan`` as the kept card's server takes it: the
/// fields chosen; the email and phone not taken kept as a second email and number; every
/// property of the deleted card the wallet does not model kept as a line (issue 40); its picture
/// when the kept card has none. On a CardDAV book the kept card's own vCard is edited, so its
/// other properties stay byte for byte.
public enum CardMerger {
    /// The merged card.
    ///
    /// - Parameters:
    ///   - plan: the cards and the choices.
    ///   - droppedPicture: the picture of the card that goes, when it keeps it apart from a vCard
    ///     (the card API) and the kept card has none.
    /// - Throws: a vCard that cannot be edited as asked (a 2.1 card, a value it cannot hold).
    public static func merged(_ plan: CardMergePlan, droppedPicture: (data: Data, type: String)? = nil) throws
        -> TransferCard
    {
        let kept = plan.card(plan.keep)
        let dropped = plan.card(plan.keep.other)
        let fields = plan.fields
        let droppedResource = dropped.source.flatMap { try? VCardResource(text: $0) }
        let droppedLines =
            droppedResource?.unmodelledLines
            ?? dropped.fields.vcardProperties.filter { !isIdentity($0) }
        let droppedPhoto: VCardPhoto? =
            droppedResource?.picture?.photo
            ?? droppedPicture.flatMap { picture in
                CardImageFormat(sniffing: picture.data).map { VCardPhoto(bytes: [UInt8](picture.data), format: $0) }
            }
        if let source = kept.source {
            let resource = try VCardResource(text: source)
            let edit: VCardPictureEdit = resource.picture == nil ? droppedPhoto.map { .replace($0) } ?? .keep : .keep
            let edited = try resource.edited(fields: fields, picture: edit, revision: Date())
            let added = newLines(extras(plan) + droppedLines, besides: edited.contentLines)
            return TransferCard(fields: fields, vcard: try edited.adding(added).text)
        }
        var merged = fields
        merged.vcardProperties = kept.fields.vcardProperties
        merged.vcardProperties += newLines(extras(plan) + droppedLines, besides: kept.fields.vcardProperties)
        guard !kept.hasImage, let photo = droppedPhoto else { return TransferCard(fields: merged) }
        return TransferCard(fields: merged, image: Data(photo.bytes), imageType: photo.format.contentType)
    }

    /// How many properties of the card that goes the merged card keeps as lines (for people).
    public static func keptLineCount(_ plan: CardMergePlan) -> Int {
        let dropped = plan.card(plan.keep.other)
        return dropped.source.flatMap { try? VCardResource(text: $0) }?.unmodelledLines.count
            ?? dropped.fields.vcardProperties.filter { !isIdentity($0) }.count
    }

    /// The second email and number, as vCard lines.
    static func extras(_ plan: CardMergePlan) -> [String] {
        var lines: [String] = []
        if let email = plan.otherEmail { lines.append("EMAIL;TYPE=INTERNET:" + VCardText.escape(email)) }
        if let phone = plan.otherPhone { lines.append("TEL;TYPE=VOICE:" + VCardText.escape(phone)) }
        return lines
    }

    /// `lines` without those the card has already: the same line, or an email or a number it
    /// holds in another line (by its value; a number by its digits).
    static func newLines(_ lines: [String], besides existing: [String]) -> [String] {
        var seen = Set(existing)
        var values = Set(existing.compactMap(contactValue))
        var result: [String] = []
        for line in lines where !seen.contains(line) {
            if let value = contactValue(line) {
                guard !values.contains(value) else { continue }
                values.insert(value)
            }
            seen.insert(line)
            result.append(line)
        }
        return result
    }

    /// An email line's address (lower case) or a phone line's digits; `nil` for other lines.
    static func contactValue(_ line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].split(separator: ";").first.map { $0.split(separator: ".").last ?? $0 } ?? ""
        let value = line[line.index(after: colon)...]
        switch name.uppercased() {
        case "EMAIL": return "email:" + value.lowercased().replacingOccurrences(of: "mailto:", with: "")
        case "TEL": return "tel:" + String(value.filter(\.isNumber))
        default: return nil
        }
    }

    /// Whether a kept line is the card's identity (its UID), which the kept card has its own of.
    static func isIdentity(_ line: String) -> Bool {
        line.uppercased().hasPrefix("UID:") || line.uppercased().hasPrefix("UID;")
    }
}
