import CardMockServer
import CardModels
import CardWalletUI
import Foundation
import Networking
import Testing

@testable import cardwallet

/// The shape of what the commands print: JSON for nothing, the list's columns, the `-v` lines
/// and the demo's notes (issue "A newcomer's first hour", items 15, 16 and 17).
@Suite struct OutputShapeTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func emptyArraysAndObjectsAreWrittenOnOneLine() throws {
        #expect(try CardText.json([CardSummary]()) == "[]\n")
        let card = Card(id: "c1", fields: CardFields(name: "Ada"), createdAt: Self.date, updatedAt: Self.date)
        let text = try CardText.json(card)
        #expect(text.contains("\"tags\" : [],"), "\(text)")
        #expect(text.contains("\"tmi\" : []"), "\(text)")
        #expect(!text.contains("\n\n"))
        // Still the same data, and text with line breaks or brackets in strings is untouched.
        let tricky = Card(
            id: "c2", fields: CardFields(name: "[\n\n]", bio: "{\n\n  }", tags: ["a"]), createdAt: Self.date,
            updatedAt: Self.date)
        let decoded = try CardWalletJSON.decoder().decode(Card.self, from: Data(try CardText.json(tricky).utf8))
        #expect(decoded.fields == tricky.fields)
        #expect(try CardText.json([String: Int]()) == "{}\n")
    }

    /// The interface's list shows name, company, title, email: `list` too, after the id.
    @Test func listColumnsFollowTheInterfacesOrder() {
        #expect(CardText.listColumns.map(\.title) == ["ID", "NAME", "COMPANY", "TITLE", "EMAIL"])
        let summary = CardSummary(
            id: "c1", name: "Ada", title: "Countess", company: "Engines", email: "ada@example.com", updatedAt: Self.date
        )
        let lines = CardText.table([summary]).split(separator: "\n")
        #expect(lines.first == "ID  NAME  COMPANY  TITLE     EMAIL")
        #expect(lines.last == "c1  Ada   Engines  Countess  ada@example.com")
    }

    @Test func verboseLinesShowTheQueryAsTheLogPaneDoes() {
        let event = NetworkEvent(
            requestID: RequestID(rawValue: 1), kind: .sent, timestamp: Self.date, method: .get,
            url: "http://127.0.0.1:8080/v1/cards?offset=0&limit=200&q=%E2%80%AE#frag", path: "/v1/cards")
        let shown = VerboseEventLines.withQuery(event)
        #expect(NetworkEventFormatter().line(shown) == "→ GET /v1/cards?offset=0&limit=200&q=%E2%80%AE")
        #expect(VerboseEventLines.query(of: "http://h/v1/x#a?b") == "")
        #expect(VerboseEventLines.query(of: "http://h/v1/x") == "")
        #expect(
            VerboseEventLines.withQuery(
                NetworkEvent(
                    requestID: RequestID(rawValue: 2), kind: .sent, timestamp: Self.date, method: .get,
                    url: "http://h/v1/card/a", path: "/v1/card/a")
            ).path == "/v1/card/a")
    }

    static func notes(admin: Bool, port: Int = 65_535) -> DemoNotes {
        var configuration = MockServerConfiguration.testing
        configuration.admin = admin
        return DemoNotes(
            baseURL: "http://127.0.0.1:\(port)/v1", email: "demo@cardwallet.dev", configuration: configuration)
    }

    /// Every note fits an 80-column log pane whole, whatever the port.
    @Test(arguments: [true, false])
    func demoNotesFitAnEightyColumnLogPane(admin: Bool) {
        let lines = Self.notes(admin: admin).whileRunning
        #expect(DemoNotes.paneWidth == 67)
        for line in lines {
            #expect(DisplayWidth.of(line) <= DemoNotes.paneWidth, "\(DisplayWidth.of(line)): \(line)")
        }
        #expect(lines.contains { $0.contains("http://127.0.0.1:65535/v1") })
        #expect(lines.contains { $0.contains("curl") } == admin)
    }

    /// The admin notes are shell: setting the variables, then the command, reaches the
    /// server's admin endpoint for the demo account.
    @Test func demoAdminNotesNameTheRightURLInTheShell() throws {
        let lines = Self.notes(admin: true, port: 41_234).whileRunning
        let setting = try #require(lines.first { $0.hasPrefix("  a=") })
        for action in ["expire", "revoke"] {
            let command = try #require(lines.first { $0.contains("curl") && $0.contains(action) })
            let printing = command.replacingOccurrences(of: "curl -X POST", with: "printf %s")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", setting + "\n" + printing]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text == "http://127.0.0.1:41234/v1/_admin/\(action)?email=demo@cardwallet.dev")
        }
        #expect(DemoNotes.shellWord("o'brien@x.dev") == #"'o'\''brien@x.dev'"#)
        #expect(DemoNotes.shellWord("a b") == "'a b'")
    }

    /// After the demo the server is gone: the notes say so and show no command for it.
    @Test(arguments: [true, false])
    func afterTheDemoNoCommandNamesTheStoppedServer(admin: Bool) {
        let lines = Self.notes(admin: admin).afterExit(logPath: "/tmp/log")
        #expect(
            lines.first == "The demo server at http://127.0.0.1:65535/v1 has stopped; the demo's tokens are deleted.")
        #expect(!lines.joined().contains("curl"))
        #expect(!lines.dropFirst().joined().contains("127.0.0.1"))
        #expect(lines.contains("Network log: /tmp/log"))
    }
}
