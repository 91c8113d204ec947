import CardAPIContract
import CardBackend
import Testing

@testable import CardAPI

/// The error codes are rows of one table (`ErrorCode.table`): each row alone gives a code its
/// status, its summary, the client's sentence and the failure kind above the backend seam, so a
/// new code needs no other list.
@Suite struct ErrorCodeTableTests {
    @Test func theTableHoldsEachCodeOnce() {
        let codes = ErrorCode.table.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(ErrorCode.allKnown == codes)
        for row in ErrorCode.table {
            #expect(row.code.row?.httpStatus == row.httpStatus)
            #expect(row.code.httpStatus == row.httpStatus)
            #expect(row.code.summary == row.summary)
        }
    }

    @Test(arguments: ErrorCode.table.map(\.code))
    func eachCodeReadsAsItsRowSays(code: ErrorCode) throws {
        let row = try #require(code.row)
        let error = CardAPIError.server(
            ServerError(statusCode: row.httpStatus, code: code, message: "", fields: ["name": "is required"]))
        // The sentence names the code the server sent.
        #expect(error.description.contains(code.rawValue), "\(error.description)")
        let kind = error.failureKind
        switch row.meaning {
        case .invalid: #expect(kind == .invalid(fields: ["name": "is required"]))
        case .loginFailed: #expect(kind == .loginFailed)
        case .accessRefused, .sessionEnded: #expect(kind == .loginRequired)
        case .notFound: #expect(kind == .notFound)
        case .conflict: #expect(kind == .conflict)
        case .tooLarge: #expect(kind == .tooLarge)
        case .unsupportedMedia: #expect(kind == .unsupportedMedia)
        case .rateLimited: #expect(kind == .rateLimited(retryAfterSeconds: nil))
        case .serverFailure: #expect(kind == .server(status: row.httpStatus))
        }
    }

    @Test func aCodeNotInTheTableIsTheServersFailure() {
        let error = CardAPIError.server(ServerError(statusCode: 418, code: ErrorCode(rawValue: "E42"), message: ""))
        #expect(error.failureKind == .server(status: 418))
        #expect(error.description.contains("which this cardwallet does not know"))
    }
}
