/// Resizes images by area averaging: each target pixel is the average of the source area it
/// covers, weighted by how much of each source pixel falls inside it.
///
/// Written by hand (rather than through libchafa or another library) because it is one
/// separable filter of a few dozen lines, exact for the large reductions a terminal needs
/// (a 3000-pixel photo into 60 columns) and still reasonable when enlarging a small image
/// (it then keeps the source's pixels as blocks, softened at their edges).
/// docs/Images.md compares it with libchafa's scaler.
public enum ImageScaler {
    /// `image` resized to `size` (each side at least 1).
    public static func scale(_ image: RGBAImage, to size: PixelSize) -> RGBAImage {
        let target = PixelSize(width: max(1, size.width), height: max(1, size.height))
        guard target != image.size else { return image }
        let columns = Weights(source: image.width, target: target.width)
        let rows = Weights(source: image.height, target: target.height)
        // Horizontal pass into floats (target width × source height), then vertical to bytes.
        var middle = [Float](repeating: 0, count: target.width * image.height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let sourceRow = y * image.width * 4
                    let outRow = y * target.width * 4
                    for x in 0..<target.width {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        let start = columns.starts[x]
                        for k in 0..<columns.counts[x] {
                            let weight = columns.weights[columns.offsets[x] + k]
                            let index = sourceRow + (start + k) * 4
                            r += Float(source[index]) * weight
                            g += Float(source[index + 1]) * weight
                            b += Float(source[index + 2]) * weight
                            a += Float(source[index + 3]) * weight
                        }
                        let o = outRow + x * 4
                        out[o] = r
                        out[o + 1] = g
                        out[o + 2] = b
                        out[o + 3] = a
                    }
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * 4)
        let stride = target.width * 4
        var sums = [Float](repeating: 0, count: stride)
        middle.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sum in
                    for y in 0..<target.height {
                        for i in 0..<stride { sum[i] = 0 }
                        for k in 0..<rows.counts[y] {
                            let weight = rows.weights[rows.offsets[y] + k]
                            let sourceRow = (rows.starts[y] + k) * stride
                            for i in 0..<stride { sum[i] += source[sourceRow + i] * weight }
                        }
                        let outRow = y * stride
                        for i in 0..<stride { out[outRow + i] = UInt8(min(255, max(0, sum[i] + 0.5))) }
                    }
                }
            }
        }
        return RGBAImage(width: target.width, height: target.height, pixels: pixels)
    }

    /// For each target index along one axis: the first source index, how many follow, and
    /// their weights (summing to 1), stored flat.
    private struct Weights {
        var starts: [Int] = []
        var counts: [Int] = []
        var offsets: [Int] = []
        var weights: [Float] = []

        init(source: Int, target: Int) {
            let ratio = Double(source) / Double(target)
            for index in 0..<target {
                let low = Double(index) * ratio
                let high = min(Double(source), Double(index + 1) * ratio)
                let first = min(source - 1, Int(low))
                let last = max(first, min(source - 1, Int((high - 1e-9).rounded(.up)) - 1))
                starts.append(first)
                counts.append(last - first + 1)
                offsets.append(weights.count)
                let span = high - low
                for s in first...last {
                    let overlap = min(high, Double(s + 1)) - max(low, Double(s))
                    weights.append(Float(max(0, overlap) / span))
                }
            }
        }
    }
}
