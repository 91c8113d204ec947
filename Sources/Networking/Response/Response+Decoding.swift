public import Foundation

extension Response {
    /// Decodes the JSON body as `T`, optionally at a key path such as `data` or `data.cards`.
    ///
    /// The key path is walked while decoding (no re-serialization), so a failure names the full
    /// path, for example `data.cards[2].name`.
    ///
    /// - Throws: ``NetworkError/decoding(_:)`` with the type, the key path and a short,
    ///   redacted body excerpt.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws(NetworkError) -> T {
        let keys = keyPath.map { $0.split(separator: ".").map(String.init) } ?? []
        do {
            if keys.isEmpty { return try decoder.decode(T.self, from: body) }
            let pathDecoder = KeyPathDecoding<T>.decoder(from: decoder, keys: keys)
            return try pathDecoder.decode(KeyPathDecoding<T>.self, from: body).value
        } catch {
            throw .decoding(DecodingFailure(type: T.self, keyPath: keys, error: error, response: self))
        }
    }

    /// The body as a string, or the string at a key path of the JSON body.
    ///
    /// - Throws: ``NetworkError/decoding(_:)`` if the key path does not lead to a string.
    public func string(atKeyPath keyPath: String? = nil) throws(NetworkError) -> String {
        guard let keyPath else { return text }
        return try decode(String.self, atKeyPath: keyPath)
    }
}

/// Decodes `Value` found under a key path, walking nested keyed containers.
struct KeyPathDecoding<Value: Decodable>: Decodable {
    static var keysKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "networking.keyPath")! }

    let value: Value

    static func decoder(from base: JSONDecoder, keys: [String]) -> JSONDecoder {
        // JSONDecoder is a class: configure a copy so the caller's decoder is untouched.
        let copy = JSONDecoder()
        copy.dateDecodingStrategy = base.dateDecodingStrategy
        copy.dataDecodingStrategy = base.dataDecodingStrategy
        copy.keyDecodingStrategy = base.keyDecodingStrategy
        copy.nonConformingFloatDecodingStrategy = base.nonConformingFloatDecodingStrategy
        copy.allowsJSON5 = base.allowsJSON5
        var info = base.userInfo
        info[keysKey] = keys
        copy.userInfo = info
        return copy
    }

    init(from decoder: any Decoder) throws {
        let keys = decoder.userInfo[Self.keysKey] as? [String] ?? []
        guard let last = keys.last else {
            value = try Value(from: decoder)
            return
        }
        var container = try decoder.container(keyedBy: AnyCodingKey.self)
        for key in keys.dropLast() {
            container = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(key))
        }
        value = try container.decode(Value.self, forKey: AnyCodingKey(last))
    }
}

/// A coding key made from any string.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
