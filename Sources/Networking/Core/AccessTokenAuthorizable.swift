/// A target that says whether it needs an access token, as in Moya.
///
/// Targets that do not conform need one by default (see ``TargetType/authorizationType``).
/// An auth interceptor reads ``TargetType/authorizationType`` and leaves a target alone when it is
/// `nil` — that is how a token refresh or login call bypasses the interceptor on a shared provider.
public protocol AccessTokenAuthorizable {
    /// How this target is authorized, or `nil` for none.
    var authorizationType: AuthorizationType? { get }
}

/// The scheme of an `Authorization` header.
public enum AuthorizationType: Sendable, Hashable {
    /// `Authorization: Bearer <token>`.
    case bearer
    /// `Authorization: Basic <token>`.
    case basic
    /// `Authorization: <scheme> <token>`.
    case custom(String)

    /// The scheme word, for example `Bearer`.
    public var scheme: String {
        switch self {
        case .bearer: "Bearer"
        case .basic: "Basic"
        case .custom(let scheme): scheme
        }
    }
}

extension TargetType {
    /// How this target is authorized: the target's own answer if it conforms to
    /// ``AccessTokenAuthorizable``, else ``AuthorizationType/bearer``.
    public var authorizationType: AuthorizationType? {
        if let authorizable = self as? any AccessTokenAuthorizable { return authorizable.authorizationType }
        return .bearer
    }
}
