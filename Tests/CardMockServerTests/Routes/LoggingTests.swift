import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// Keeps every log record in memory, for assertions. Never bootstraps the logging system.
final class RecordingLogHandler: LogHandler, Sendable {
    let records = Mutex<[String]>([])
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        let line = "\(event.level) \(event.message) \(event.metadata ?? [:])"
        records.withLock { $0.append(line) }
    }

    var text: String { records.withLock { $0.joined(separator: "\n") } }
}

@Suite struct LoggingTests {
    @Test func requestLogsNeverContainTokensOrPasswords() async throws {
        let handler = RecordingLogHandler()
        let logger = Logger(label: "test") { _ in handler }
        let app = try await MockServer.makeApp(configuration: .testing, logger: logger)
        let secrets = try await app.application.test(.router) { client in
            let api = API(client: client)
            var secrets = [Seeds.demoPassword, "wrong-password-123"]
            _ = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "wrong-password-123"))
            let grant = try await api.login()
            let second = try await api.refresh(grant.refreshToken).data(TokenGrant.self)
            _ = try await api.refresh(grant.refreshToken)  // reuse: logged as a warning
            _ = try await api.send(.get, "/cards", token: second.accessToken)
            _ = try await api.send(.get, "/cards?q=secret-search", token: "cwa_forged.token")
            _ = try await api.send(.post, "/auth/logout", token: second.accessToken)
            for token in [grant, second].flatMap({ [$0.accessToken, $0.refreshToken] }) {
                secrets.append(token)
                secrets.append(String(token.split(separator: ".")[1]))
            }
            return secrets
        }
        let text = handler.text
        #expect(text.contains("status=200") || text.contains("\"status\": 200") || text.contains("status: 200"))
        #expect(text.contains("E06"))
        #expect(text.contains("reuse"))
        for secret in secrets {
            #expect(!text.contains(secret))
        }
        #expect(!text.contains("secret-search"), "query strings are not logged")
    }
}
