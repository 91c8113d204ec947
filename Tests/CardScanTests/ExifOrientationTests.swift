import CardImages
import Testing

@testable import CardScan

/// The bounded EXIF reader: the orientation tag of JPEGs and PNGs, and nothing but `.up` (never
/// a crash) from damaged files.
@Suite("EXIF orientation")
struct ExifOrientationTests {
    /// A TIFF structure whose first IFD holds one entry: `Orientation` (or another tag).
    static func tiff(littleEndian: Bool, orientation: UInt16, tag: UInt16 = 0x0112, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let big = [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) }
            return littleEndian ? big.reversed() : big
        }
        let value: [UInt8] = type == 4 ? u32(UInt32(orientation)) : u16(orientation) + [0, 0]
        return (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8) + u16(1) + u16(tag) + u16(type)
            + u32(1) + value + u32(0)
    }

    /// A JPEG's start: SOI, an APP0 (JFIF) segment, then APP1 with `payload`.
    static func jpeg(_ payload: [UInt8]) -> [UInt8] {
        let jfif: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        let app1 = Array("Exif\0\0".utf8) + payload
        let length = app1.count + 2
        return [0xFF, 0xD8] + jfif + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + [0xFF, 0xDA, 0, 2]
    }

    /// A PNG's start: the signature, then an `eXIf` chunk with `payload` (CRC not checked).
    static func png(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        let size = [24, 16, 8, 0].map { UInt8((length >> $0) & 0xFF) }
        return PhotoKind.pngSignature + [0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 0, count: 13) + [
            0, 0, 0, 0,
        ]
            + size + Array("eXIf".utf8) + payload + [0, 0, 0, 0]
    }

    @Test(arguments: [true, false])
    func jpegTag(littleEndian: Bool) {
        for orientation in ExifOrientation.allCases {
            let bytes = Self.jpeg(Self.tiff(littleEndian: littleEndian, orientation: UInt16(orientation.rawValue)))
            #expect(ExifOrientation.read(from: bytes) == orientation)
        }
    }

    @Test func pngTagAndLongType() {
        #expect(ExifOrientation.read(from: Self.png(Self.tiff(littleEndian: false, orientation: 6))) == .right)
        #expect(ExifOrientation.read(from: Self.jpeg(Self.tiff(littleEndian: true, orientation: 8, type: 4))) == .left)
    }

    @Test("no tag, another tag, a value out of range, a damaged segment: upright")
    func noTag() {
        #expect(ExifOrientation.read(from: [0xFF, 0xD8, 0xFF, 0xD9]) == .up)
        #expect(
            ExifOrientation.read(from: Self.jpeg(Self.tiff(littleEndian: true, orientation: 6, tag: 0x010F))) == .up)
        #expect(ExifOrientation.read(from: Self.jpeg(Self.tiff(littleEndian: true, orientation: 9))) == .up)
        var damaged = Self.jpeg(Self.tiff(littleEndian: true, orientation: 6))
        damaged[damaged.count - 24] = 0xFF  // the IFD offset points past the end
        #expect(ExifOrientation.read(from: Array(damaged.prefix(30))) == .up)
        #expect(ExifOrientation.read(from: Array("not an image".utf8)) == .up)
    }

    @Test("every cut and every flipped byte of a tagged JPEG reads without a crash")
    func mutations() {
        let bytes = Self.jpeg(Self.tiff(littleEndian: true, orientation: 6))
        for length in 0...bytes.count {
            _ = ExifOrientation.read(from: Array(bytes.prefix(length)))
        }
        // A fixed-seed generator, so a failure is the same on every run.
        var state: UInt64 = 0x5EED_CAFE
        for _ in 0..<2_000 {
            var mutated = bytes
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                mutated[Int(state >> 33) % mutated.count] = UInt8(truncatingIfNeeded: state >> 17)
            }
            let orientation = ExifOrientation.read(from: mutated)
            #expect(ExifOrientation.allCases.contains(orientation))
        }
    }
}
