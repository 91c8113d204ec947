import Testing

@testable import CardImages

@Suite("Decoding PNG and JPEG")
struct DecodingTests {
    @Test("a PNG decodes to exactly its pixels")
    func pngRoundTrip() throws {
        let image = TestImages.quadrants(width: 20, height: 10)
        let decoded = try ImageDecoder.decode(try TestImages.png(image))
        #expect(decoded == image)
        #expect(try ImageDecoder.size(of: try TestImages.png(image)) == PixelSize(width: 20, height: 10))
    }

    @Test("a PNG with transparency keeps its alpha; flattening blends it over the background")
    func pngAlpha() throws {
        var image = RGBAImage(width: 2, height: 1, filledWith: .white)
        image.setColor(TestImages.red, x: 1, y: 0, alpha: 0)
        let decoded = try ImageDecoder.decode(try TestImages.png(image))
        #expect(decoded.alpha(x: 1, y: 0) == 0)
        #expect(decoded.flattened(over: .black).color(x: 1, y: 0) == .black)
        #expect(decoded.flattened(over: .black).color(x: 0, y: 0) == .white)
    }

    @Test("a JPEG decodes to its size and, within compression error, its colours")
    func jpegRoundTrip() throws {
        let image = TestImages.quadrants(width: 64, height: 48)
        let decoded = try ImageDecoder.decode(try TestImages.jpeg(image))
        #expect(decoded.size == image.size)
        #expect(TestImages.close(decoded.color(x: 8, y: 8), TestImages.red, tolerance: 24))
        #expect(TestImages.close(decoded.color(x: 56, y: 40), TestImages.yellow, tolerance: 24))
    }

    @Test("a JPEG is decoded at the smallest 1/8 scale still at least the size asked for")
    func jpegScaledDecode() throws {
        let file = try TestImages.jpeg(TestImages.quadrants(width: 400, height: 200))
        #expect(
            try ImageDecoder.decode(file, atLeast: PixelSize(width: 40, height: 20)).size
                == PixelSize(width: 50, height: 25))
        #expect(
            try ImageDecoder.decode(file, atLeast: PixelSize(width: 120, height: 10)).size
                == PixelSize(width: 150, height: 75))
        #expect(
            try ImageDecoder.decode(file, atLeast: PixelSize(width: 900, height: 900)).size
                == PixelSize(width: 400, height: 200))
    }

    @Test(
        "EXIF orientation turns a JPEG upright",
        arguments: [
            (1, false, TestImages.red), (2, false, TestImages.green), (3, false, TestImages.yellow),
            (4, false, TestImages.blue), (5, true, TestImages.red), (6, true, TestImages.blue),
            (7, true, TestImages.yellow), (8, true, TestImages.green),
        ])
    func exifOrientation(orientation: Int, swaps: Bool, topLeft: RGBColor) throws {
        let stored = TestImages.quadrants(width: 64, height: 32)
        let file = try TestImages.jpeg(stored, orientation: orientation)
        let decoded = try ImageDecoder.decode(file)
        #expect(decoded.size == (swaps ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32)))
        #expect(try ImageDecoder.size(of: file) == decoded.size)
        #expect(TestImages.close(decoded.color(x: 3, y: 3), topLeft, tolerance: 24))
    }

    @Test("the Exif parser reads little-endian files and ignores garbage")
    func exifParser() {
        let little: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0, 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0, 0, 0, 0x06, 0x00, 0, 0,
        ]
        #expect(ExifOrientation(tiff: little) == .right)
        #expect(ExifOrientation(tiff: [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
        #expect(ExifOrientation(tiff: [1, 2, 3]) == nil)
        var wrongValue = little
        wrongValue[18] = 9
        #expect(ExifOrientation(tiff: wrongValue) == nil)
    }

    @Test("empty, unknown and oversized inputs are refused before any decoder runs")
    func refusedInputs() {
        #expect(throws: ImageDecodeError.empty) { _ = try ImageDecoder.decode([]) }
        #expect(throws: ImageDecodeError.unknownFormat) { _ = try ImageDecoder.decode(Array("GIF89a....".utf8)) }
        let limits = DecodeLimits(maximumBytes: 10)
        #expect(throws: ImageDecodeError.tooManyBytes(11, limit: 10)) {
            _ = try ImageDecoder.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0], limits: limits)
        }
    }

    @Test("an image with more pixels than the limit is refused from its header")
    func tooManyPixels() throws {
        let limits = DecodeLimits(maximumPixels: 1000)
        let png = try TestImages.png(TestImages.quadrants(width: 40, height: 30))
        let jpeg = try TestImages.jpeg(TestImages.quadrants(width: 40, height: 30))
        for file in [png, jpeg] {
            let error = #expect(throws: ImageDecodeError.self) { _ = try ImageDecoder.decode(file, limits: limits) }
            #expect(error?.kind == .tooLarge)
            #expect(error?.description.contains("40×30") == true)
        }
        #expect(throws: ImageDecodeError.self) {
            _ = try ImageDecoder.decode(png, limits: DecodeLimits(maximumSide: 39))
        }
    }

    @Test("a PNG header claiming 100 000 × 100 000 pixels is refused, not allocated")
    func hugePNGHeader() {
        let error = #expect(throws: ImageDecodeError.self) {
            _ = try ImageDecoder.decode(PNGFixtures.header(width: 100_000, height: 100_000))
        }
        #expect(error?.kind == .tooLarge)
    }

    @Test("truncated files give a clear error")
    func truncated() throws {
        let png = try TestImages.png(TestImages.gradient(width: 64, height: 64))
        let jpeg = try TestImages.jpeg(TestImages.gradient(width: 64, height: 64))
        for (file, format) in [(png, "PNG"), (jpeg, "JPEG")] {
            // An image whose pixel data is complete decodes even without its last chunk or
            // marker (libpng stops after the data; a missing JPEG EOI is only one byte pair);
            // cutting into the data is an error.
            for keep in [file.count / 2, file.count - 20, 40] {
                let error = #expect(throws: ImageDecodeError.self, "\(format) cut to \(keep) bytes") {
                    _ = try ImageDecoder.decode(Array(file.prefix(keep)))
                }
                #expect(error?.kind == .corrupt)
                #expect(error?.description.hasPrefix("The \(format) image cannot be decoded: ") == true)
            }
        }
    }

    @Test("mutated files never crash: each decodes or gives an error (fixed seed)")
    func fuzzMutations() throws {
        var generator = TestImages.SeededGenerator(state: 16)
        let sources = [
            try TestImages.png(TestImages.gradient(width: 24, height: 16)),
            try TestImages.jpeg(TestImages.gradient(width: 24, height: 16)),
            try TestImages.jpeg(TestImages.quadrants(width: 16, height: 16), orientation: 6),
        ]
        var errors = 0
        for round in 0..<300 {
            var file = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 2..<file.count, using: &generator)
                file[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                file = Array(file.prefix(Int.random(in: 8..<file.count, using: &generator)))
            }
            do {
                let image = try ImageDecoder.decode(file, limits: DecodeLimits(maximumPixels: 1_000_000))
                #expect(image.pixels.count == image.width * image.height * 4, "decoded size mismatch")
            } catch {
                errors += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(errors > 0)
    }
}

/// PNG files built byte by byte, for headers no encoder would write.
enum PNGFixtures {
    /// A signature, an IHDR chunk and a tiny IDAT (correct CRCs): a header no encoder would
    /// write for these sizes, enough for a decoder to read the size and start.
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        ihdr += bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        let idat: [UInt8] = Array("IDAT".utf8) + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + ihdr + bigEndian(crc32(ihdr))
            + bigEndian(UInt32(idat.count - 4)) + idat + bigEndian(crc32(idat))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
