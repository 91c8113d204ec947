/// Alamofire-compatible URL encoding of parameters: the query-string and form-body format.
public enum URLEncodedForm {
    /// Characters left as they are: RFC 3986 unreserved characters plus `/` and `?`
    /// (allowed in a query, RFC 3986 §3.4).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default: false
        }
    }

    /// `text` percent-encoded for a query component (UTF-8, upper-case hex; space is `%20`).
    public static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy(isAllowed) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `a=1&b%5B%5D=2…`: the parameters encoded, keys sorted, arrays and dictionaries expanded.
    public static func encode(
        _ parameters: Parameters,
        arrays: ArrayEncoding = .brackets,
        bools: BoolEncoding = .numeric
    ) -> String {
        var components: [(String, String)] = []
        for key in parameters.keys.sorted() {
            if let value = parameters[key] { append(key, value, arrays: arrays, bools: bools, to: &components) }
        }
        return components.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    private static func append(
        _ key: String,
        _ value: ParameterValue,
        arrays: ArrayEncoding,
        bools: BoolEncoding,
        to components: inout [(String, String)]
    ) {
        switch value {
        case .dictionary(let dictionary):
            for nestedKey in dictionary.keys.sorted() {
                if let nested = dictionary[nestedKey] {
                    append("\(key)[\(nestedKey)]", nested, arrays: arrays, bools: bools, to: &components)
                }
            }
        case .array(let values):
            for (index, element) in values.enumerated() {
                let elementKey =
                    switch arrays {
                    case .brackets: "\(key)[]"
                    case .noBrackets: key
                    case .indexInBrackets: "\(key)[\(index)]"
                    }
                append(elementKey, element, arrays: arrays, bools: bools, to: &components)
            }
        case .bool(let flag):
            let text =
                switch bools {
                case .numeric: flag ? "1" : "0"
                case .literal: flag ? "true" : "false"
                }
            components.append((escape(key), text))
        case .string(let text): components.append((escape(key), escape(text)))
        case .int(let number): components.append((escape(key), String(number)))
        case .double(let number): components.append((escape(key), escape(String(number))))
        case .null: break
        }
    }
}
