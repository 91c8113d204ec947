import Testing

@testable import CardImages

@Suite("Scaling and fitting to cells")
struct ScalingTests {
    @Test("reducing averages the area each pixel covers")
    func reduceAverages() {
        var image = RGBAImage(width: 2, height: 2, filledWith: .black)
        image.setColor(.white, x: 0, y: 0)
        image.setColor(.white, x: 1, y: 1)
        let one = ImageScaler.scale(image, to: PixelSize(width: 1, height: 1))
        #expect(one.color(x: 0, y: 0) == RGBColor(red: 128, green: 128, blue: 128))
        let quadrants = ImageScaler.scale(
            TestImages.quadrants(width: 300, height: 200), to: PixelSize(width: 30, height: 20))
        #expect(quadrants.size == PixelSize(width: 30, height: 20))
        #expect(quadrants.color(x: 3, y: 3) == TestImages.red)
        #expect(quadrants.color(x: 26, y: 16) == TestImages.yellow)
    }

    @Test("a fractional reduction weighs the pixels it cuts through")
    func fractionalWeights() {
        var image = RGBAImage(width: 3, height: 1, filledWith: .black)
        image.setColor(.white, x: 1, y: 0)
        let two = ImageScaler.scale(image, to: PixelSize(width: 2, height: 1))
        // Each target pixel covers 1.5 source pixels: one black, half the white one.
        #expect(two.color(x: 0, y: 0) == RGBColor(red: 85, green: 85, blue: 85))
        #expect(two.color(x: 1, y: 0) == RGBColor(red: 85, green: 85, blue: 85))
    }

    @Test("enlarging keeps the source's pixels as blocks")
    func enlarge() {
        let image = TestImages.quadrants(width: 2, height: 2)
        let big = ImageScaler.scale(image, to: PixelSize(width: 8, height: 8))
        #expect(big.color(x: 0, y: 0) == TestImages.red)
        #expect(big.color(x: 3, y: 3) == TestImages.red)
        #expect(big.color(x: 4, y: 0) == TestImages.green)
        #expect(big.color(x: 7, y: 7) == TestImages.yellow)
    }

    @Test(
        "an image fits its box of cells with its aspect kept (cells 1:2)",
        arguments: [
            (PixelSize(width: 200, height: 100), CellSize(columns: 40, rows: 40), CellSize(columns: 40, rows: 10)),
            (PixelSize(width: 100, height: 200), CellSize(columns: 40, rows: 20), CellSize(columns: 20, rows: 20)),
            (PixelSize(width: 3000, height: 2000), CellSize(columns: 60, rows: 30), CellSize(columns: 60, rows: 20)),
            (PixelSize(width: 1, height: 1000), CellSize(columns: 10, rows: 5), CellSize(columns: 1, rows: 5)),
            (PixelSize(width: 1000, height: 1), CellSize(columns: 10, rows: 5), CellSize(columns: 10, rows: 1)),
        ])
    func cellFit(image: PixelSize, box: CellSize, expected: CellSize) {
        #expect(CellFit.cells(for: image, in: box) == expected)
    }

    @Test("the cell's own aspect, when the terminal says it, is used")
    func cellAspect() {
        let square = CellFit.cells(
            for: PixelSize(width: 100, height: 100), in: CellSize(columns: 20, rows: 20),
            cellPixels: PixelSize(width: 8, height: 8))
        #expect(square == CellSize(columns: 20, rows: 20))
        #expect(
            CellFit.pixels(for: PixelSize(width: 300, height: 200), within: PixelSize(width: 100, height: 100))
                == PixelSize(width: 100, height: 67))
    }
}
