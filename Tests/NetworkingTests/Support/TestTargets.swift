import Foundation
import Networking

/// Endpoints of the test server (and of stubs standing in for it).
enum TestAPI: TargetType {
    case echo(HTTPMethod, RequestBody)
    case status(Int)
    case headers
    case hang
    case drip
    case upload(URL)
    case download(Int, DownloadDestination)
    case canary(String, fail: Bool)
    case withTimeout(Duration)
    case refresh

    var baseURL: URL { URL(string: "http://stub.invalid")! }

    var path: String {
        switch self {
        case .echo: "/echo"
        case .status(let code): "/status/\(code)"
        case .headers: "/headers"
        case .hang, .withTimeout: "/hang"
        case .drip: "/drip"
        case .upload: "/upload"
        case .download: "/download"
        case .canary: "/canary"
        case .refresh: "/echo"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .echo(let method, _): method
        case .upload, .canary, .refresh: .post
        default: .get
        }
    }

    var body: RequestBody {
        switch self {
        case .echo(_, let body): body
        case .upload(let url): .uploadFile(url, contentType: "application/octet-stream")
        case .download(let size, let destination): .download(to: destination, query: ["size": .int(size)])
        case .canary(let canary, let fail):
            .composite(
                .json(
                    [
                        "password": .string(canary), "profile": ["apiSecret": .string(canary), "name": "Ada"],
                        "items": [["token": .string(canary)]],
                    ] as Parameters),
                query: fail
                    ? ["token": .string(canary), "page": 1, "fail": true] : ["token": .string(canary), "page": 1])
        default: .plain
        }
    }

    var timeout: Duration? {
        if case .withTimeout(let timeout) = self { return timeout }
        return nil
    }

    var sampleData: Data {
        switch self {
        case .status(let code) where code >= 400: Data(#"{"errorCode":"E\#(code)","message":"status \#(code)"}"#.utf8)
        case .status: Data(#"{"ok":true}"#.utf8)
        default: Data()
        }
    }
}

extension TestAPI: AccessTokenAuthorizable {
    var authorizationType: AuthorizationType? {
        if case .refresh = self { return nil }
        return .bearer
    }
}

/// A target whose base URL is chosen per instance (a live server's port).
struct Endpoint: TargetType {
    var baseURL: URL
    var target: TestAPI

    init(port: Int, _ target: TestAPI) {
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.target = target
    }

    init(base: URL = URL(string: "http://stub.invalid")!, _ target: TestAPI) {
        self.baseURL = base
        self.target = target
    }

    var path: String { target.path }
    var method: HTTPMethod { target.method }
    var body: RequestBody { target.body }
    var headers: Headers { target.headers }
    var sampleData: Data { target.sampleData }
    var validation: Validation { target.validation }
    var timeout: Duration? { target.timeout }
}

extension Endpoint: AccessTokenAuthorizable {
    var authorizationType: AuthorizationType? { target.authorizationType }
}
