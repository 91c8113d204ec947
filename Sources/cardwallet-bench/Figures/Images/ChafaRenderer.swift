import CChafa
import CardImages

/// libchafa's scaler and encoders, driven the way ours are, for the images figure's comparison.
/// Owns its canvas, configuration and symbol map for the length of each call.
enum ChafaRenderer {
    /// What chafa is asked to draw.
    enum Mode {
        /// Sixel (chafa's quantiser, dithering off to match ours).
        case sixel
        /// Symbols limited to the vertical half blocks (`▀ ▄`), 24-bit colour: our half blocks.
        case halfBlocks
    }

    /// Scales `image` into `cells` and encodes it; returns the bytes chafa would write.
    static func render(_ image: RGBAImage, cells: CellSize, cellPixels: PixelSize, mode: Mode) -> Int {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(cells.columns), Int32(cells.rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cellPixels.width), Int32(cellPixels.height))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        switch mode {
        case .sixel:
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        case .halfBlocks:
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
            let map = chafa_symbol_map_new()
            defer { chafa_symbol_map_unref(map) }
            chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_VHALF)
            chafa_canvas_config_set_symbol_map(config, map)
        }
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress, Int32(image.width), Int32(image.height),
                Int32(image.width * 4))
        }
        guard let printed = chafa_canvas_print(canvas, nil) else { return 0 }
        let count = Int(printed.pointee.len)
        g_string_free(printed, 1)
        return count
    }
}
