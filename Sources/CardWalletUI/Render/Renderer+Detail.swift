import CardModels

extension Renderer {
    static func drawDetail(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        guard let detail = state.detail else { return }
        let detailLayout = state.detailLayout
        let lines = DetailLines.make(detail, width: detailLayout.textWidth, pictures: state.pictures)
        let viewport = layout.content.count
        let scroll = min(detail.scroll, max(0, lines.count - viewport))
        for (offset, line) in lines.dropFirst(scroll).prefix(viewport).enumerated() {
            let y = layout.content.lowerBound + offset
            switch line.role {
            case .title:
                grid.draw(line.text, x: 1, y: y, style: Theme.label)
            case .subtitle, .muted:
                grid.draw(line.text, x: 1, y: y, style: Theme.muted)
            case .plain:
                grid.draw(line.text, x: 1, y: y)
            case .field:
                if let label = line.label {
                    grid.draw(label, x: 1, y: y, width: DetailLines.labelWidth - 1, style: Theme.label)
                }
                grid.draw(line.text, x: 1 + DetailLines.labelWidth, y: y)
            }
        }
        // The scroll marks stay left of the picture.
        let right = detailLayout.textWidth
        if scroll > 0 {
            let above = "↑ \(scroll) above"
            grid.draw(above, x: right - DisplayWidth.of(above) - 1, y: layout.content.lowerBound, style: Theme.muted)
        }
        if lines.count > scroll + viewport {
            let more = "↓ \(lines.count - scroll - viewport) more"
            grid.draw(more, x: right - DisplayWidth.of(more) - 1, y: layout.content.upperBound - 1, style: Theme.muted)
        }
        if let box = detailLayout.pictureBox {
            drawPicture(&grid, state, detail.picture, box: box, x: detailLayout.pictureX, y: detailLayout.pictureY)
        }
    }

    /// A picture (the card's, the form's photo) in its box at (`x`, `y`): cells drawn into the
    /// grid, or an overlay the terminal draws (only while nothing covers it); a note while it
    /// loads or when it cannot show.
    static func drawPicture(_ grid: inout Grid, _ state: AppState, _ slot: PictureSlot, box: PictureBox, x: Int, y: Int)
    {
        switch slot {
        case .shown(let request, let picture) where request.box == box:
            let columns = min(picture.size.columns, box.columns)
            let rows = min(picture.size.rows, box.rows)
            switch picture.content {
            case .cells(let cells):
                grid.drawPicture(cells, x: x, y: y, width: columns, height: rows)
            case .escapes(let bytes):
                // The terminal draws it after the cells; it would hide a dialog drawn over it.
                guard state.picturesMayOverlay, picture.size.columns <= box.columns, picture.size.rows <= box.rows
                else { return }
                grid.overlays.append(Grid.Overlay(x: x, y: y, columns: columns, rows: rows, escapes: bytes))
            }
        case .failed(_, let message):
            for (offset, line) in TextLayout.wrap(TerminalText.escaped(message), width: max(1, box.columns)).prefix(
                box.rows
            ).enumerated() {
                grid.draw(line, x: x, y: y + offset, width: box.columns, style: Theme.warning)
            }
        case .loading, .shown:
            grid.draw("Loading the picture…", x: x, y: y, width: box.columns, style: Theme.muted)
        case .none:
            break
        }
    }

    /// The card as a QR code over the whole screen but the key hints, in explicit colours
    /// (dark modules on light), with its quiet zone; or how large the terminal must be.
    static func drawQR(_ grid: inout Grid, _ state: AppState, _ view: QRView) {
        let area = AppState.qrArea(width: grid.width, height: grid.height)
        grid.fill(x: 0, y: 0, width: grid.width, height: grid.height)
        let name = state.detail?.card?.fields.name ?? state.detail?.summary.name ?? ""
        switch view {
        case .wanted, .loading:
            grid.draw(" QR code of “\(name)”: making it… · any key closes", x: 0, y: 0, style: Theme.label)
        case .failed(let message):
            grid.draw(" QR code of “\(name)” · any key closes", x: 0, y: 0, style: Theme.label)
            for (offset, line) in TextLayout.wrap(TerminalText.escaped(message), width: max(1, grid.width - 2))
                .enumerated()
            {
                grid.draw(line, x: 1, y: 2 + offset, style: Theme.error)
            }
        case .shown(_, let symbol):
            let needed = symbol.requiredCells
            var caption = " QR code of “\(name)” (vCard 3.0)"
            if let note = symbol.note { caption += " · \(note)" }
            let closing = " · any key closes"
            grid.draw(caption, x: 0, y: 0, width: max(0, grid.width - DisplayWidth.of(closing)), style: Theme.label)
            grid.draw(
                closing, x: min(DisplayWidth.of(caption), max(0, grid.width - DisplayWidth.of(closing))), y: 0,
                style: Theme.muted)
            guard needed.columns <= area.columns, needed.rows <= area.rows else {
                let lines = [
                    "The terminal is too small for this QR code.",
                    "Make it at least \(needed.columns) columns by \(needed.rows + 1) rows (it is \(grid.width)×\(grid.height)),",
                    "or make the font smaller. A code cut to fit could not be read.",
                ]
                for (offset, line) in lines.enumerated() {
                    grid.draw(line, x: 1, y: 2 + offset, style: offset == 0 ? Theme.warning : Style())
                }
                return
            }
            let left = (grid.width - needed.columns) / 2
            let top = 1 + (area.rows - needed.rows) / 2
            grid.drawPicture(qrCells(symbol), x: left, y: top, width: needed.columns, height: needed.rows)
        }
    }

    /// The symbol as cells, two modules a cell: the character is the `qrencode -t UTF8`
    /// rendering (a full block for two light modules), drawn light on dark — so the explicit
    /// colours give dark modules on light, and a terminal without colours still shows the
    /// code as `qrencode` would, light on its dark background.
    static func qrCells(_ symbol: QRSymbol) -> [[PictureCell]] {
        let light = TerminalColor.rgb(255, 255, 255)
        let dark = TerminalColor.rgb(0, 0, 0)
        let side = symbol.sideWithQuietZone
        let quiet = QRSymbol.quietZone
        return stride(from: 0, to: side, by: 2).map { top in
            (0..<side).map { x in
                let upper = !symbol.isDark(x: x - quiet, y: top - quiet)
                let lower = top + 1 < side ? !symbol.isDark(x: x - quiet, y: top + 1 - quiet) : true
                let character: Character =
                    switch (upper, lower) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                return PictureCell(character, foreground: light, background: dark)
            }
        }
    }
}

extension AppState {
    /// The cells a QR code may take: every row but the caption.
    static func qrArea(width: Int, height: Int) -> PictureBox {
        PictureBox(columns: width, rows: max(0, height - 1))
    }
}
