/// How ``Parameters`` become part of a request.
///
/// - ``queryString``: appended to the URL (`?a=1&b=2`), for any method.
/// - ``formURLEncoded``: the body, `application/x-www-form-urlencoded; charset=utf-8`.
/// - ``json``: the body, `application/json`, keys sorted.
///
/// URL encoding follows Alamofire's `URLEncoding`: keys sorted, nested values written
/// `a[b]=c`, arrays `a[]=1&a[]=2`, Booleans `1`/`0`, and every character outside RFC 3986's
/// unreserved set (plus `/` and `?`) percent-encoded, so `[`/`]` travel as `%5B`/`%5D`.
public struct ParameterEncoding: Sendable, Hashable {
    enum Destination: Sendable, Hashable {
        case queryString
        case formBody
        case jsonBody
    }

    let destination: Destination
    let arrays: ArrayEncoding
    let bools: BoolEncoding

    /// Parameters in the URL's query string.
    public static let queryString = ParameterEncoding(destination: .queryString, arrays: .brackets, bools: .numeric)
    /// Parameters as a URL-encoded form body.
    public static let formURLEncoded = ParameterEncoding(destination: .formBody, arrays: .brackets, bools: .numeric)
    /// Parameters as a JSON object body.
    public static let json = ParameterEncoding(destination: .jsonBody, arrays: .brackets, bools: .numeric)

    /// Parameters in the query string, with a chosen style for arrays and Booleans.
    public static func queryString(arrays: ArrayEncoding, bools: BoolEncoding = .numeric) -> ParameterEncoding {
        ParameterEncoding(destination: .queryString, arrays: arrays, bools: bools)
    }

    /// Parameters as a form body, with a chosen style for arrays and Booleans.
    public static func formURLEncoded(arrays: ArrayEncoding, bools: BoolEncoding = .numeric) -> ParameterEncoding {
        ParameterEncoding(destination: .formBody, arrays: arrays, bools: bools)
    }
}

/// How URL encoding writes an array parameter `a = [1, 2]`.
public enum ArrayEncoding: Sendable, Hashable {
    /// `a[]=1&a[]=2` (Alamofire's default).
    case brackets
    /// `a=1&a=2`.
    case noBrackets
    /// `a[0]=1&a[1]=2`.
    case indexInBrackets
}

/// How URL encoding writes a Boolean parameter.
public enum BoolEncoding: Sendable, Hashable {
    /// `1` and `0` (Alamofire's default).
    case numeric
    /// `true` and `false`.
    case literal
}
