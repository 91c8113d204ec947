/// Where the form's fields and the picture of its image file go: worked out from the state
/// alone, so the reducer (the picture's size) and the renderer agree. The picture goes beside
/// the fields when both fit, below them when the terminal is narrow, nowhere when it is small.
public struct FormLayout: Equatable, Sendable {
    /// The columns the fields use (the whole width without a picture beside them).
    public let textWidth: Int
    /// The row below the last the fields may use.
    public let fieldsBottom: Int
    /// The cells the picture may take, when there is one to show.
    public let pictureBox: PictureBox?
    /// The column of the picture's left edge.
    public let pictureX: Int
    /// The row of the picture's top edge.
    public let pictureY: Int

    /// The fewest columns the labels and inputs need beside a picture.
    public static let minimumFieldsWidth = 48
    /// The most rows a picture below the fields takes.
    public static let maximumRowsBelow = 10
    /// The fewest rows worth a picture below the fields.
    public static let minimumRowsBelow = 4

    /// The layout of `state`'s form.
    public init(_ state: AppState) {
        let layout = state.layout
        let width = state.width
        let content = layout.content
        // The heading's row stays the form's.
        let top = min(content.upperBound, content.lowerBound + 1)
        let wanted = state.form.map { $0.picturePath != nil && $0.conflict == nil } ?? false
        let shows = wanted && state.pictures.kind != .off && !layout.isTooSmall
        let columns = min(
            DetailLayout.maximumPictureColumns, max(DetailLayout.minimumPictureColumns, (width - 2) * 2 / 5))
        let rowsBelow = min(Self.maximumRowsBelow, (content.upperBound - top) / 2)
        if shows, width - columns - 2 >= Self.minimumFieldsWidth {
            textWidth = width - columns - 2
            fieldsBottom = content.upperBound
            pictureBox = PictureBox(columns: columns, rows: content.upperBound - top)
            pictureX = width - 1 - columns
            pictureY = top
        } else if shows, rowsBelow >= Self.minimumRowsBelow {
            textWidth = width
            // A blank row between the fields and the picture.
            fieldsBottom = content.upperBound - rowsBelow - 1
            pictureBox = PictureBox(columns: max(0, width - 2), rows: rowsBelow)
            pictureX = 1
            pictureY = content.upperBound - rowsBelow
        } else {
            textWidth = width
            fieldsBottom = content.upperBound
            pictureBox = nil
            pictureX = width
            pictureY = top
        }
    }
}

extension FormState {
    /// The index of the Image file field (the add form's only).
    var imageFieldIndex: Int? { fields.firstIndex { $0.kind == .imagePath } }

    /// Takes the Image field's path for the picture when the field is not being typed in (so
    /// typing a path makes no picture per keystroke).
    mutating func takePicturePath() {
        guard let index = imageFieldIndex, index != focus, picturePath != imagePath else { return }
        picturePath = imagePath
    }

    /// Asks for the picture of ``picturePath`` that the form lacks at `box`.
    mutating func settlePicture(box: PictureBox?) -> [FormEffect] {
        guard let path = picturePath else {
            picture = .none
            return []
        }
        // Too small for now: the picture of another size stays until there is room again.
        guard let box, box.columns > 0, box.rows > 0 else { return [] }
        let request = PictureRequest(path: path, box: box)
        guard picture.request != request else { return [] }
        picture = .loading(request)
        return [.call(.filePicture(path: path, box: box), then: .picture(request))]
    }

    /// The picture asked for as `request` arrived (or could not be made).
    mutating func pictureArrived(_ request: PictureRequest, _ outcome: CallOutcome) -> [FormEffect] {
        let transmit = picture.arrived(request, outcome)
        return transmit.isEmpty ? [] : [.terminal(transmit)]
    }
}

extension AppState {
    /// The layout of the form.
    public var formLayout: FormLayout { FormLayout(self) }

    /// After every action: the form takes its image file's path once the field is left, and asks
    /// for its picture at the size the screen gives it now.
    mutating func settleForm() -> [Effect] {
        guard screen == .form, form != nil, !layout.isTooSmall else { return [] }
        form?.takePicturePath()
        return reduceForm(.settlePicture(box: formLayout.pictureBox))
    }

    /// The picture beside the form, when it is here.
    var shownFormPicture: TerminalPicture? { form?.picture.picture }
}
