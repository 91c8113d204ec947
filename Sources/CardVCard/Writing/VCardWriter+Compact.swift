public import CardModels

extension VCardWriter {
    /// The card in at most `budget` bytes, for a QR code: no picture, no `PRODID` or `REV`, and
    /// when that is still too long, fields left out from the least telling (kept lines, then the
    /// bio, fun facts, tags, birthday, address, UID, website) until it fits. Name, phone and
    /// email are never left out; `nil` when even they do not fit.
    ///
    /// - Parameters:
    ///   - card: the card.
    ///   - budget: the most bytes (CR LF and folding included).
    public func compact(_ card: Card, budget: Int) -> [UInt8]? {
        var lines = lines(for: card, photo: nil).filter { !$0.text.hasPrefix("PRODID:") && !$0.text.hasPrefix("REV:") }
        while true {
            var out: [UInt8] = []
            for line in lines { LineFolding.append(line.text, to: &out) }
            if out.count <= budget { return out }
            // Leave out the most expendable line, the last among equals.
            guard let worst = lines.map(\.expendability).max(), worst > 1,
                let index = lines.lastIndex(where: { $0.expendability == worst })
            else { return nil }
            lines.remove(at: index)
        }
    }
}
