import CardModels

/// Where the detail screen's text and picture go: worked out from the state alone, so the
/// reducer (scrolling, the picture's size) and the renderer agree.
public struct DetailLayout: Equatable, Sendable {
    /// The columns the text is wrapped to (the whole width without a picture).
    public let textWidth: Int
    /// The cells the picture may take, when the card has one to show here.
    public let pictureBox: PictureBox?
    /// The column of the picture's left edge.
    public let pictureX: Int
    /// The row of the picture's top edge.
    public let pictureY: Int

    /// The most columns a picture takes, whatever the width.
    public static let maximumPictureColumns = 48
    /// The fewest columns worth a picture.
    public static let minimumPictureColumns = 20

    /// The layout of `state`'s detail screen.
    public init(_ state: AppState) {
        let layout = state.layout
        let width = state.width
        let hasImage = state.detail.map { $0.card?.hasImage ?? $0.summary.hasImage } ?? false
        let columns = min(Self.maximumPictureColumns, max(Self.minimumPictureColumns, (width - 2) * 2 / 5))
        let shows = hasImage && state.pictures.kind != .off && !layout.isTooSmall && width - columns - 2 >= 30
        if shows {
            textWidth = width - columns - 2
            pictureBox = PictureBox(columns: columns, rows: layout.content.count)
            pictureX = width - 1 - columns
        } else {
            textWidth = width
            pictureBox = nil
            pictureX = width
        }
        pictureY = layout.content.lowerBound
    }
}

extension AppState {
    /// The layout of the detail screen.
    public var detailLayout: DetailLayout { DetailLayout(self) }

    /// After every action: the detail screen asks for what it lacks (its picture at the size
    /// the screen gives it now, the kept lines to show).
    mutating func settleDetail() -> [Effect] {
        guard screen == .detail, detail != nil, !layout.isTooSmall else { return [] }
        return reduceDetail(
            .settle(pictureBox: detailLayout.pictureBox, qrBox: Self.qrArea(width: width, height: height)))
    }

    /// The bytes that free a picture in the terminal (kitty) once it is no longer shown.
    static func releases(before: TerminalPicture?, after: TerminalPicture?) -> [Effect] {
        guard let before, !before.release.isEmpty, before != after else { return [] }
        return [.writeToTerminal(before.release)]
    }

    /// The picture of the card shown, when it is here.
    var shownPicture: TerminalPicture? { detail?.picture.picture }

    /// Whether a picture the terminal draws over the grid (iTerm2, sixel) may show now: nothing
    /// covers the card (a dialog, a page, the QR code, the form's scan prompt), since the
    /// picture would cover it in turn.
    var picturesMayOverlay: Bool {
        modal == nil && overlay == nil && reauth == nil && transfer == nil && detail?.qr == nil && form?.scan == nil
    }
}
