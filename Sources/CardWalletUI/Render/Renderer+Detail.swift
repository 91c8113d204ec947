extension Renderer {
    static func drawDetail(_ grid: inout Grid, _ state: AppState, _ layout: Layout) {
        guard let detail = state.detail else { return }
        let lines = DetailLines.make(detail, width: grid.width)
        let viewport = layout.content.count
        let scroll = min(detail.scroll, max(0, lines.count - viewport))
        for (offset, line) in lines.dropFirst(scroll).prefix(viewport).enumerated() {
            let y = layout.content.lowerBound + offset
            switch line.role {
            case .title:
                grid.draw(line.text, x: 1, y: y, style: Theme.label)
            case .subtitle:
                grid.draw(line.text, x: 1, y: y, style: Theme.muted)
            case .muted:
                grid.draw(line.text, x: 1, y: y, style: Theme.muted)
            case .field:
                if let label = line.label {
                    grid.draw(label, x: 1, y: y, width: DetailLines.labelWidth - 1, style: Theme.label)
                }
                grid.draw(line.text, x: 1 + DetailLines.labelWidth, y: y)
            }
        }
        if scroll > 0 {
            let above = "↑ \(scroll) above"
            grid.draw(above, x: grid.width - DisplayWidth.of(above) - 1, y: layout.content.lowerBound, style: Theme.muted)
        }
        if lines.count > scroll + viewport {
            let more = "↓ \(lines.count - scroll - viewport) more"
            grid.draw(more, x: grid.width - DisplayWidth.of(more) - 1, y: layout.content.upperBound - 1, style: Theme.muted)
        }
    }
}
