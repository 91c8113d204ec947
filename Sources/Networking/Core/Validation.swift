/// Which response status codes a target accepts; any other status fails the request with
/// ``NetworkError/unacceptableStatus(_:)``, which keeps the whole ``Response``.
public enum Validation: Sendable, Hashable {
    /// Accept every status.
    case none
    /// Accept 200–299 (the default).
    case successCodes
    /// Accept 200–399.
    case successAndRedirectCodes
    /// Accept exactly these codes.
    case customCodes(Set<Int>)

    /// Whether `statusCode` passes this validation.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(statusCode)
        case .successAndRedirectCodes: (200..<400).contains(statusCode)
        case .customCodes(let codes): codes.contains(statusCode)
        }
    }
}
