/// Terminfo string capabilities as raw bytes.
enum TerminfoString {
    /// `value` without its padding specifications (`$<5>`, `$<2*/>`), which only `tputs`
    /// understands; written raw they would show up as text.
    static func removingPadding(_ value: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == UInt8(ascii: "$"), index + 1 < value.endIndex,
                value[index + 1] == UInt8(ascii: "<"),
                let close = value[(index + 2)...].firstIndex(of: UInt8(ascii: ">"))
            {
                index = close + 1
                continue
            }
            result.append(value[index])
            index += 1
        }
        return result
    }
}
