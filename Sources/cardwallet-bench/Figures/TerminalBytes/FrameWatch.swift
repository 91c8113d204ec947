/// Decides when a burst of terminal output — a program's first frame, or its answer to a key —
/// is complete, from the bytes and the times they arrived. Pure: no terminal, no clock.
///
/// The rule: the output so far contains ``marker`` (text the finished frame must show, such as
/// a contact's name; empty for "any output"), and then nothing more arrives for ``quiet``
/// seconds. The frame's time is that of its **last byte**, so the quiet wait is not counted.
/// `quiet` must be longer than any pause inside one frame and than the app's animation period
/// (the TUI's spinner turns every 100 ms while requests are in flight), so a frame still loading
/// never passes for finished.
struct FrameWatch: Sendable {
    /// Text the frame must contain, as bytes (UTF-8).
    let marker: [UInt8]
    /// Seconds of silence after the marker that end the frame.
    let quiet: Double
    /// Bytes received so far.
    private(set) var byteCount = 0
    /// When the first byte came (seconds on the caller's clock), if any did.
    private(set) var firstByteAt: Double?
    /// When the last byte came, if any did.
    private(set) var lastByteAt: Double?
    /// Whether the marker has appeared.
    private(set) var markerSeen: Bool
    /// When the chunk that completed the marker came (the first byte's time for an empty marker).
    private(set) var markerAt: Double?
    /// The last bytes received (at most ``tailLimit``), for error messages.
    private(set) var tail: [UInt8] = []
    /// The end of the previous chunks, so a marker split across two reads is still found.
    private var carry: [UInt8] = []

    /// How many of the last bytes ``tail`` keeps.
    static let tailLimit = 240

    /// A watch for `marker` (empty: any output) followed by `quiet` seconds of silence.
    init(marker: String, quiet: Double) {
        self.marker = Array(marker.utf8)
        self.quiet = quiet
        markerSeen = self.marker.isEmpty
    }

    /// Records `chunk`, read at `time`.
    mutating func record(_ chunk: [UInt8], at time: Double) {
        guard !chunk.isEmpty else { return }
        byteCount += chunk.count
        if firstByteAt == nil { firstByteAt = time }
        lastByteAt = time
        if !markerSeen {
            let window = carry + chunk
            markerSeen = Self.contains(window, marker)
            carry = Array(window.suffix(max(0, marker.count - 1)))
        }
        if markerSeen, markerAt == nil { markerAt = time }
        tail = Array((tail + chunk).suffix(Self.tailLimit))
    }

    /// Whether the frame is complete at `now`.
    func isComplete(at now: Double) -> Bool {
        guard markerSeen, let lastByteAt else { return false }
        return now - lastByteAt >= quiet
    }

    /// How long to wait for more output before asking ``isComplete(at:)`` again: the rest of the
    /// quiet window once the marker is in, else a whole window.
    func timeToWait(at now: Double) -> Double {
        guard markerSeen, let lastByteAt else { return quiet }
        return max(0, lastByteAt + quiet - now)
    }

    /// Whether `bytes` contains `needle` (an empty needle is everywhere).
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `bytes` as printable ASCII: escape sequences show as `\e[…`, other control and non-ASCII
    /// bytes as `\xNN` (terminal output is never printed raw).
    static func printable(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x1B: text += "\\e"
            case 0x0D: text += "\\r"
            case 0x0A: text += "\\n"
            case 0x5C: text += "\\\\"
            case 0x20..<0x7F: text.append(Character(Unicode.Scalar(byte)))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
